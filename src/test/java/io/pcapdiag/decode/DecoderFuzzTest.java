package io.pcapdiag.decode;

import static io.pcapdiag.testing.TcpBuilder.ACK;
import static io.pcapdiag.testing.TcpBuilder.RST;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static io.pcapdiag.testing.TcpBuilder.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.DnsBuilder;
import io.pcapdiag.testing.Frames;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random mutations and truncations of valid frames (fixed seed): the decoder never throws, keeps
 * truncation and malformation apart, and reads nothing outside the captured bytes.
 */
class DecoderFuzzTest {
    private static final int ITERATIONS = 20_000;
    private static final int[] LINK_TYPES = {0, 1, 12, 14, 101, 108, 113, 228, 229, 276, 147};
    private static final byte[] INTERESTING = {0, (byte) 0xff, (byte) 0x80, 0x7f, 0x05, 0x0f, 0x45, 0x4f, 0x60, 0x06, 0x2c,
            0x3a, 0x00, 0x01, (byte) 0x81, (byte) 0x86, (byte) 0xdd, 0x08};

    private record Sample(int linkType, byte[] bytes) {
    }

    /**
     * A sample as the fuzzer makes it over: one in ten unchanged, the rest mutated; one in four cut at a random
     * length; one in twenty read as another link type.
     */
    private record Mutant(int linkType, byte[] bytes, int capLen) {
        static Mutant of(List<Sample> corpus, Random r) {
            Sample s = corpus.get(r.nextInt(corpus.size()));
            byte[] m = r.nextInt(10) == 0 ? s.bytes() : mutate(s.bytes(), r);
            int capLen = r.nextInt(4) == 0 ? r.nextInt(m.length + 1) : m.length;
            int linkType = r.nextInt(20) == 0 ? LINK_TYPES[r.nextInt(LINK_TYPES.length)] : s.linkType();
            return new Mutant(linkType, m, capLen);
        }
    }

    private static List<Sample> corpus() {
        byte[] syn4 = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").options(Ipv4Builder.recordRoute(1))
                .tcp(tcp(1000, 80).seq(5).flags(SYN).options(TcpBuilder.linuxSynOptions())).build();
        byte[] rst4 = Ipv4Builder.ipv4("10.0.0.2", "10.0.0.1").tcp(tcp(80, 1000).ack(6).flags(RST | ACK)).build();
        byte[] syn6 = Ipv6Builder.ipv6("fd00::1", "fd00::2").hopByHop(Ipv6Builder.routerAlert()).routing(2, 1, "fd00::3")
                .fragment(0, false, 1).ah(1, 2, 4).destOpts(new byte[3]).tcp(tcp(1000, 80).seq(5).flags(SYN)).build();
        byte[] icmp4 = Ipv4Builder.ipv4("10.0.0.2", "10.0.0.1").icmp(IcmpBuilder.v4Unreachable(3, syn4, 64)).build();
        byte[] icmp6 = Ipv6Builder.ipv6("fd00::2", "fd00::1").icmpv6(IcmpBuilder.v6Unreachable(4, syn6, 200)).build();
        // Path MTU discovery's errors quoting a full-size segment, and a SYN whose options fill the header.
        byte[] fragNeeded = Ipv4Builder.ipv4("10.0.0.254", "10.0.0.2").icmp(IcmpBuilder.message(3, 4, 1450,
                Arrays.copyOf(MtuFixtures.fullSegment4(), 548))).build();
        byte[] tooBig = Ipv6Builder.ipv6("fd00::fe", "fd00::2").icmpv6(IcmpBuilder.message(2, 0, 1280,
                Arrays.copyOf(MtuFixtures.fullSegment6(), 1232))).build();
        byte[] synFull = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").tcp(tcp(1000, 80).seq(5).flags(SYN).options(Buf
                .hex("020405b4 0402 080a 00bc614e 00000000 01 030307 0101 050a 00000001 00000002 0101"))).build();
        byte[] frag = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").fragment(3, true).payload(6, new byte[40]).build();
        byte[] query4 = Ipv4Builder.ipv4("10.0.0.1", "10.96.0.10")
                .payload(Ipv4Builder.PROTO_UDP, DnsBuilder.udp(40001, 53, DnsBuilder.query(7, "www.example.com", 1).build())).build();
        byte[] answer6 = Ipv6Builder.ipv6("fd00::a", "fd00::1").payload(Ipv4Builder.PROTO_UDP, DnsBuilder.udp(53, 40001,
                DnsBuilder.query(8, "kube-dns.kube-system.svc.cluster.local", 28).response(0).answerAaaa("fd00::53")
                        .answerA("10.96.0.10").opt(1232, 0).build())).build();
        List<Sample> l = new ArrayList<>();
        for (byte[] ip : List.of(syn4, rst4, syn6, icmp4, icmp6, frag, query4, answer6, fragNeeded, tooBig, synFull)) {
            l.add(new Sample(1, LinkBuilder.ethernet(ip)));
            l.add(new Sample(1, LinkBuilder.ethernet().tag(0x88a8, 1).tag(0x8100, 2).padTo(60).payload(ip)));
            l.add(new Sample(113, LinkBuilder.sll(LinkBuilder.MAC_A, ip)));
            l.add(new Sample(276, LinkBuilder.sll2(LinkBuilder.MAC_B, ip)));
            l.add(new Sample(101, ip));
            l.add(new Sample(0, LinkBuilder.bsdNull(ip[0] >> 4 == 4 ? 2 : 30, ByteOrder.LITTLE_ENDIAN, ip)));
            l.add(new Sample(108, LinkBuilder.loop(ip[0] >> 4 == 4 ? 2 : 24, ip)));
        }
        return l;
    }

    private static byte[] mutate(byte[] b, Random r) {
        byte[] m = b.clone();
        int edits = 1 + r.nextInt(6);
        for (int i = 0; i < edits && m.length > 0; i++) {
            int at = r.nextInt(m.length);
            switch (r.nextInt(3)) {
                case 0 -> m[at] = (byte) r.nextInt(256);
                case 1 -> m[at] = INTERESTING[r.nextInt(INTERESTING.length)];
                default -> m[at] ^= (byte) (1 << r.nextInt(8));
            }
        }
        return m;
    }

    @Test
    void mutatedAndTruncatedFramesNeverThrowAndStayConsistent() {
        Random r = new Random(0x5eed);
        List<Sample> corpus = corpus();
        Decoder reused = new Decoder();
        PacketView reusedView = new PacketView();
        int[] kinds = new int[PacketView.Kind.values().length];
        for (int i = 0; i < ITERATIONS; i++) {
            Mutant mutant = Mutant.of(corpus, r);
            byte[] m = mutant.bytes();
            int capLen = mutant.capLen();
            int linkType = mutant.linkType();

            // The same captured bytes, with different bytes before and after them.
            Frame a = embed(linkType, m, capLen, 0, 0, (byte) 0);
            Frame b = embed(linkType, m, capLen, 13, 200, (byte) 0xff);
            Frame c = embed(linkType, m, capLen, 3, 97, (byte) 0x45);
            String da;
            String db;
            String dc;
            try {
                da = DecodeTesting.describe(DecodeTesting.decode(a));
                db = DecodeTesting.describe(DecodeTesting.decode(b));
                dc = DecodeTesting.describe(DecodeTesting.decode(c));
                reused.decode(c, reusedView);
            } catch (RuntimeException e) {
                throw new AssertionError("iteration " + i + " threw on link type " + linkType + " cap " + capLen + ": "
                        + hex(Arrays.copyOf(m, capLen)), e);
            }
            final int it = i;
            assertEquals(da, db, () -> "iteration " + it + ": bytes outside the capture changed the result");
            assertEquals(da, dc, () -> "iteration " + it + ": bytes outside the capture changed the result");
            assertEquals(da, DecodeTesting.describe(reusedView), () -> "iteration " + it + ": a reused view kept stale fields");
            checkInvariants(DecodeTesting.decode(c), i);
            kinds[reusedView.kind.ordinal()]++;
        }
        // The corpus and mutations reach every outcome, so the invariants were exercised on each.
        for (PacketView.Kind k : PacketView.Kind.values()) {
            assertTrue(kinds[k.ordinal()] > 100, () -> k + " seen only " + kinds[k.ordinal()] + " times");
        }
    }

    private static void checkInvariants(PacketView v, int i) {
        String d = "iteration " + i + ": " + DecodeTesting.describe(v);
        assertNotNull(v.kind, d);
        if (v.truncated) {
            assertNotNull(v.weird, d);
            assertTrue(Weird.isTruncation(v.weird), d);
        }
        // An anomaly inside a tunnel or a DNS message leaves the packet around it standing (the outer UDP datagram, or
        // for IP in IP the outer IP packet); anywhere else nothing is decoded.
        boolean inTunnel = v.tunnelDepth > 0 || Weird.TRUNCATED_TUNNEL.equals(v.weird) || Weird.BAD_TUNNEL_HEADER.equals(v.weird);
        boolean inDns = v.dns && v.dnsMalformed;
        // A bad SYN option leaves the segment standing (its own fields are good), and is seen only on a SYN.
        boolean badOption = Weird.BAD_TCP_OPTION.equals(v.weird);
        if (badOption) {
            assertEquals(PacketView.Kind.TCP, v.kind, d);
            assertTrue(v.has(PacketView.SYN), d);
        }
        // The fields of path MTU discovery: -1 outside the packets that carry them.
        assertTrue(v.tcpMss == -1 || v.kind == PacketView.Kind.TCP && v.has(PacketView.SYN) && v.tcpMss <= 65535, d);
        assertTrue(v.icmpMtu == -1 || v.kind == PacketView.Kind.ICMP_ERROR && v.icmpMtu >= 0 && (v.ipVersion == 4
                ? v.icmpType == 3 && v.icmpCode == 4 : v.icmpType == 2), d);
        assertTrue(v.quotedLength == -1 || v.kind == PacketView.Kind.ICMP_ERROR && v.quotedVersion != 0
                && v.quotedLength >= 0 && v.quotedLength <= 65535 + 40, d);
        if (v.weird != null && !Weird.isTruncation(v.weird)) {
            assertFalse(v.truncated, d);
            if (badOption) {
                assertEquals(PacketView.Kind.TCP, v.kind, d);
            } else if (inTunnel || inDns) {
                assertTrue(v.kind == PacketView.Kind.OTHER || v.kind == PacketView.Kind.UDP, d);
            } else {
                assertEquals(PacketView.Kind.UNDECODABLE, v.kind, d);
            }
        }
        if (v.dns) {
            assertEquals(PacketView.Kind.UDP, v.kind, d);
            assertEquals(v.dnsMalformed, v.weird != null && v.weird.contains("DNS"), d);
            assertTrue(v.dnsAddressCount >= 0 && v.dnsAddressCount <= PacketView.DNS_ADDRESSES, d);
            assertTrue(v.dnsQname == null || v.dnsQname.length() <= 4 * Dns.MAX_NAME, d);
        }
        switch (v.kind) {
            case TCP -> {
                assertTrue(v.ipVersion == 4 || v.ipVersion == 6, d);
                assertTrue(v.weird == null || badOption, d);
                assertTrue(v.srcPort >= 0 && v.srcPort <= 65535 && v.dstPort >= 0 && v.dstPort <= 65535, d);
                assertTrue(v.flags >= 0 && v.flags <= 255, d);
                assertTrue(v.tcpPayloadLength >= 0, d);
                assertFalse(v.truncated, d);
            }
            case ICMP_ERROR -> {
                assertTrue(v.ipVersion == 4 || v.ipVersion == 6, d);
                if (v.quotedHasSeq) {
                    assertTrue(v.quotedHasPorts, d);
                    assertEquals(6, v.quotedProtocol, d);
                }
                if (v.quotedHasPorts) {
                    assertTrue(v.quotedProtocol == 6 || v.quotedProtocol == 17, d);
                }
                if (v.truncated) {
                    assertEquals(Weird.TRUNCATED_ICMP_QUOTE, v.weird, d);
                }
            }
            case UDP -> {
                assertTrue(v.ipVersion == 4 || v.ipVersion == 6, d);
                assertTrue(v.srcPort >= 0 && v.srcPort <= 65535 && v.dstPort >= 0 && v.dstPort <= 65535, d);
                if (v.weird != null && !inTunnel && !inDns) {
                    fail(d);
                }
            }
            case OTHER -> {
                if (v.weird != null && !inTunnel) {
                    fail(d);
                }
            }
            case UNDECODABLE -> assertNotNull(v.weird, d);
            default -> fail(d);
        }
    }

    private static Frame embed(int linkType, byte[] m, int capLen, int lead, int tail, byte fill) {
        byte[] big = new byte[lead + m.length + tail];
        Arrays.fill(big, fill);
        System.arraycopy(m, 0, big, lead, capLen);
        // Bytes of the packet beyond capLen were not captured: fill them too.
        Frame f = Frames.frame(linkType, big);
        f.offset = lead;
        f.capLen = capLen;
        f.origLen = m.length;
        return f;
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }
}
