package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decode;
import static io.pcapdiag.decode.DecodeTesting.decodeCut;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.DnsBuilder;
import io.pcapdiag.testing.Frames;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import org.junit.jupiter.api.Test;

/** DNS over UDP, as RFC 1035 and RFC 6891 lay it out, and each way a message can be cut or malformed. */
class DnsDecodeTest {
    private static final int ETHERNET = LinkBuilder.LINKTYPE_ETHERNET;
    /** Ethernet, IPv4 and UDP headers: where the DNS message starts in a frame of {@link #v4}. */
    private static final int MESSAGE_AT = 14 + 20 + 8;

    private static byte[] v4(int srcPort, int dstPort, byte[] message) {
        return LinkBuilder.ethernet(Ipv4Builder.ipv4("10.244.0.5", "10.96.0.10")
                .payload(Ipv4Builder.PROTO_UDP, DnsBuilder.udp(srcPort, dstPort, message)).build());
    }

    /** A message with the given counts and body after the header (id 0x1234, a query). */
    private static byte[] message(int qd, int an, int ns, int ar, byte[] body) {
        return new Buf().u16(0x1234).u16(0x0100).u16(qd).u16(an).u16(ns).u16(ar).bytes(body).toByteArray();
    }

    @Test
    void aQueryGivesItsIdQuestionAndPorts() {
        PacketView v = decode(ETHERNET, v4(40001, 53, DnsBuilder.query(0xbeef, "kube-dns.kube-system.svc.cluster.local", 1).build()));
        assertEquals(PacketView.Kind.UDP, v.kind);
        assertEquals(40001, v.srcPort);
        assertEquals(53, v.dstPort);
        assertTrue(v.dns);
        assertFalse(v.dnsMalformed);
        assertNull(v.weird);
        assertEquals(0xbeef, v.dnsId);
        assertFalse(v.dnsResponse());
        assertEquals("kube-dns.kube-system.svc.cluster.local", v.dnsQname);
        assertEquals(1, v.dnsQtype);
        assertEquals(1, v.dnsQclass);
        assertEquals(1, v.dnsQuestions);
        assertEquals(0, v.dnsAnswers);
        assertEquals(0, v.dnsAddressCount);
        assertEquals(-1, v.dnsEdnsSize);
    }

    @Test
    void aResponseGivesItsRcodeAndAnswerAddressesOverIpv6() {
        byte[] message = DnsBuilder.query(7, "web.default.svc.cluster.local", 28).response(0).answerAaaa("fd00:10:96::1")
                .answerA("10.96.0.1").opt(1232, 0).build();
        byte[] frame = LinkBuilder.ethernet(Ipv6Builder.ipv6("fd00::53", "fd00::5")
                .payload(Ipv4Builder.PROTO_UDP, DnsBuilder.udp(53, 40001, message)).build());
        PacketView v = decode(ETHERNET, frame);
        assertEquals(PacketView.Kind.UDP, v.kind);
        assertTrue(v.dnsResponse());
        assertEquals(0, v.dnsRcode);
        assertEquals(2, v.dnsAnswers);
        assertEquals(2, v.dnsAddressCount);
        assertEquals("fd00:10:96::1", Ip.format(v.dnsAddressHi[0], v.dnsAddressLo[0]));
        assertEquals("10.96.0.1", Ip.format(v.dnsAddressHi[1], v.dnsAddressLo[1]));
        assertEquals(1232, v.dnsEdnsSize);
        assertNull(v.weird);
    }

    @Test
    void theRcodeTakesEdnsUpperBits() {
        PacketView nx = decode(ETHERNET, v4(53, 40001, DnsBuilder.query(9, "nope.cluster.local", 1).response(3).build()));
        assertEquals(3, nx.dnsRcode, "NXDOMAIN");
        // BADVERS (16): upper 8 bits 1 in the OPT record, lower 4 bits 0 in the header (RFC 6891 6.1.3).
        PacketView badvers = decode(ETHERNET, v4(53, 40001, DnsBuilder.query(9, "a.b", 1).response(0).opt(512, 1).build()));
        assertEquals(16, badvers.dnsRcode);
    }

    @Test
    void onlyTheDnsPortCarriesDns() {
        PacketView v = decode(ETHERNET, v4(40001, 5353, DnsBuilder.query(1, "printer.local", 1).build()));
        assertEquals(PacketView.Kind.UDP, v.kind);
        assertFalse(v.dns);
    }

    @Test
    void theClusterDnsServicesPortsCarryDnsToo() {
        PacketView v = new PacketView();
        new Decoder(java.util.List.of(5353, 53)).decode(Frames.frame(ETHERNET, v4(40001, 5353,
                DnsBuilder.query(1, "kube-dns.kube-system.svc.cluster.local", 1).build())), v);
        assertTrue(v.dns);
        assertEquals("kube-dns.kube-system.svc.cluster.local", v.dnsQname);
        new Decoder(java.util.List.of(5353)).decode(Frames.frame(ETHERNET, v4(40001, 5354,
                DnsBuilder.query(1, "printer.local", 1).build())), v);
        assertFalse(v.dns);
    }

    @Test
    void namesArePresentationFormWithEscapes() {
        byte[] odd = new Buf().u8(3).u8('a').u8('.').u8('b').u8(2).u8(' ').u8(1).u8(0).toByteArray();
        PacketView v = decode(ETHERNET, v4(40001, 53, message(1, 0, 0, 0, new Buf().bytes(odd).u16(1).u16(1).toByteArray())));
        assertEquals("a\\.b.\\032\\001", v.dnsQname);
        PacketView root = decode(ETHERNET, v4(40001, 53, message(1, 0, 0, 0, new Buf().u8(0).u16(2).u16(1).toByteArray())));
        assertEquals(".", root.dnsQname);
        assertEquals(2, root.dnsQtype);
    }

    @Test
    void aMessageCutByTheSnaplenIsTruncatedWithWhatWasRead() {
        byte[] frame = v4(40001, 53, DnsBuilder.query(0x4242, "www.example.com", 1).build());
        PacketView header = decodeCut(ETHERNET, frame, MESSAGE_AT + 6);
        assertEquals(PacketView.Kind.UDP, header.kind);
        assertEquals(Weird.TRUNCATED_DNS, header.weird);
        assertTrue(header.truncated);
        assertEquals(-1, header.dnsId, "the header itself was cut");
        PacketView question = decodeCut(ETHERNET, frame, MESSAGE_AT + 12 + 5);
        assertEquals(Weird.TRUNCATED_DNS, question.weird);
        assertEquals(0x4242, question.dnsId);
        assertNull(question.dnsQname);
        PacketView type = decodeCut(ETHERNET, frame, frame.length - 2);
        assertEquals(Weird.TRUNCATED_DNS, type.weird);
        assertTrue(type.dnsMalformed);
    }

    @Test
    void countsPastTheMessageAreMalformedNotTruncated() {
        byte[] question = new Buf().bytes(DnsBuilder.name("a.example")).u16(1).u16(1).toByteArray();
        PacketView v = decode(ETHERNET, v4(53, 40001, message(1, 5, 0, 0, question)));
        assertEquals(PacketView.Kind.UDP, v.kind);
        assertEquals(Weird.DNS_BEYOND_MESSAGE, v.weird);
        assertFalse(v.truncated);
        assertEquals("a.example", v.dnsQname, "what was read before the fault stands");
        assertEquals(5, v.dnsAnswers);
    }

    @Test
    void theMessageEndsWhereTheDatagramSays() {
        // The answer the count promises lies after the UDP length, in bytes the IP packet carries: not the message's.
        byte[] message = DnsBuilder.query(3, "a.example", 1).response(0).answerA("10.0.0.1").build();
        byte[] udp = DnsBuilder.udp(53, 40001, message);
        int cut = 8 + message.length - 16; // the answer record is 16 bytes
        udp[4] = (byte) (cut >> 8);
        udp[5] = (byte) cut;
        PacketView v = decode(ETHERNET, LinkBuilder.ethernet(Ipv4Builder.ipv4("10.96.0.10", "10.244.0.5")
                .payload(Ipv4Builder.PROTO_UDP, udp).build()));
        assertEquals(Weird.DNS_BEYOND_MESSAGE, v.weird);
        assertEquals(0, v.dnsAddressCount);
    }

    @Test
    void aLabelOver63OctetsIsMalformed() {
        byte[] body = new Buf().u8(64).bytes(new byte[64]).u8(0).u16(1).u16(1).toByteArray();
        PacketView v = decode(ETHERNET, v4(40001, 53, message(1, 0, 0, 0, body)));
        assertEquals(Weird.DNS_LABEL_TOO_LONG, v.weird);
        assertFalse(v.truncated);
        PacketView extended = decode(ETHERNET, v4(40001, 53, message(1, 0, 0, 0, new Buf().u8(0x41).u8(0).toByteArray())));
        assertEquals(Weird.DNS_LABEL_TOO_LONG, extended.weird, "the extended label type 0x40");
    }

    @Test
    void aNameOver255OctetsIsMalformed() {
        Buf name = new Buf();
        for (int i = 0; i < 5; i++) {
            name.u8(63).bytes("x".repeat(63).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        PacketView v = decode(ETHERNET, v4(40001, 53, message(1, 0, 0, 0, name.u8(0).u16(1).u16(1).toByteArray())));
        assertEquals(Weird.DNS_NAME_TOO_LONG, v.weird);
    }

    @Test
    void aCompressionLoopEndsAsAnAnomaly() {
        // The question's name is a pointer to itself (offset 12).
        PacketView self = decode(ETHERNET, v4(40001, 53, message(1, 0, 0, 0, new Buf().u16(0xc00c).u16(1).u16(1).toByteArray())));
        assertEquals(Weird.DNS_COMPRESSION_LOOP, self.weird);
        assertFalse(self.truncated);
        // An answer's name "b" then a pointer to "c", whose pointer leads back to "b" (the question ends at 19).
        byte[] body = new Buf().bytes(DnsBuilder.name("a")).u16(1).u16(1)
                .u8(1).u8('b').u16(0xc000 | 23)
                .u8(1).u8('c').u16(0xc000 | 19)
                .toByteArray();
        PacketView pair = decode(ETHERNET, v4(53, 40001, message(1, 1, 0, 0, body)));
        assertEquals(Weird.DNS_COMPRESSION_LOOP, pair.weird);
        assertEquals("a", pair.dnsQname);
        PacketView beyond = decode(ETHERNET, v4(40001, 53, message(1, 0, 0, 0, new Buf().u16(0xc000 | 500).u16(1).u16(1).toByteArray())));
        assertEquals(Weird.DNS_BEYOND_MESSAGE, beyond.weird, "a pointer past the message");
    }

    /** A TCP segment to port 53 with {@code payload}. */
    private static byte[] tcp53(byte[] payload) {
        return LinkBuilder.ethernet(Ipv4Builder.ipv4("10.244.0.5", "10.96.0.10")
                .tcp(TcpBuilder.tcp(40777, 53).seq(1).ack(1).flags(TcpBuilder.PSH | TcpBuilder.ACK).payload(payload)).build());
    }

    private static byte[] lengthPrefixed(byte[] message) {
        return new Buf().u16(message.length).bytes(message).toByteArray();
    }

    @Test
    void aTcpSegmentsMessagesAreReadOneByOneAndEachSaysWhetherAnotherFollows() {
        byte[] a = DnsBuilder.query(11, "web.default.svc.cluster.local", 1).build();
        byte[] aaaa = DnsBuilder.query(12, "web.default.svc.cluster.local", 28).build();
        byte[] frame = tcp53(new Buf().bytes(lengthPrefixed(a)).bytes(lengthPrefixed(aaaa)).toByteArray());
        Decoder decoder = new Decoder();
        PacketView first = new PacketView();
        decoder.decode(Frames.frame(ETHERNET, frame), first, 0);
        assertEquals(11, first.dnsId);
        assertTrue(first.dnsMore);
        PacketView second = new PacketView();
        decoder.decode(Frames.frame(ETHERNET, frame), second, 1);
        assertEquals(12, second.dnsId);
        assertEquals(28, second.dnsQtype);
        assertEquals(40777, second.srcPort, "the frame's own fields, as for its first message");
        assertFalse(second.dnsMore);
        // A length running past the segment is the start of a message spanning segments: nothing more to read here.
        byte[] spans = tcp53(new Buf().bytes(lengthPrefixed(a)).u16(400).bytes(new byte[20]).toByteArray());
        PacketView only = new PacketView();
        decoder.decode(Frames.frame(ETHERNET, spans), only, 0);
        assertEquals(11, only.dnsId);
        assertFalse(only.dnsMore);
        assertNull(only.weird);
    }
}
