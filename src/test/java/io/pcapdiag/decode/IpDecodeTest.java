package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decode;
import static io.pcapdiag.decode.DecodeTesting.decodeCut;
import static io.pcapdiag.testing.TcpBuilder.ACK;
import static io.pcapdiag.testing.TcpBuilder.PSH;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static io.pcapdiag.testing.TcpBuilder.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Addresses;
import io.pcapdiag.testing.Checksum;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** IPv4 (RFC 791) and IPv6 (RFC 8200) as far as the tracker needs them. */
class IpDecodeTest {
    private static final TcpBuilder DATA = tcp(40000, 80).seq(100).ack(200).flags(PSH | ACK).payload(new byte[37]);

    @ParameterizedTest(name = "IHL {0}")
    @ValueSource(ints = {5, 6, 7, 10, 15})
    void optionsAreSkippedByTheHeaderLength(int ihl) {
        byte[] opts = new byte[(ihl - 5) * 4];
        if (opts.length > 0) {
            // Record route filling the room, so no byte of the options looks like a TCP header.
            opts[0] = 7;
            opts[1] = (byte) Math.min(opts.length, 39);
            opts[2] = 4;
        }
        byte[] ip = Ipv4Builder.ipv4("192.0.2.1", "198.51.100.2").options(opts).tcp(DATA).build();
        assertEquals(ihl, ip[0] & 0x0f);
        assertTrue(Checksum.verifies(ip, 0, ihl * 4), "the builder's header checksum");
        PacketView v = decode(LinkBuilder.LINKTYPE_RAW, ip);
        assertEquals(PacketView.Kind.TCP, v.kind, () -> DecodeTesting.describe(v));
        assertEquals(40000, v.srcPort);
        assertEquals(80, v.dstPort);
        assertEquals(100, v.seq);
        assertEquals(200, v.ack);
        assertEquals(20 + 37, v.ipPayloadLength);
        assertEquals(37, v.tcpPayloadLength);
    }

    @Test
    void totalLengthZeroIsATsoSuperPacketAndTheCaptureIsTrusted() {
        byte[] ip = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").totalLength(0).tcp(tcp(1, 2).flags(ACK).payload(new byte[3000]))
                .build();
        PacketView v = decode(1, LinkBuilder.ethernet(ip));
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertNull(v.weird);
        assertEquals(20 + 3000, v.ipPayloadLength);
        assertEquals(3000, v.tcpPayloadLength);
    }

    @Test
    void totalLengthBelowTheHeaderIsMalformed() {
        byte[] ip = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").options(new byte[4]).totalLength(22).tcp(DATA).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.UNDECODABLE, v.kind);
        assertEquals(Weird.BAD_IP_TOTAL_LEN, v.weird);
        assertFalse(v.truncated);
    }

    @ParameterizedTest(name = "IHL {0}")
    @ValueSource(ints = {0, 1, 4})
    void headerLengthBelowFiveWordsIsMalformed(int ihl) {
        byte[] ip = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").ihlWords(ihl).tcp(DATA).build();
        PacketView v = decode(1, LinkBuilder.ethernet(ip));
        assertEquals(PacketView.Kind.UNDECODABLE, v.kind);
        assertEquals(Weird.BAD_IP_HEADER_LEN, v.weird);
        assertFalse(v.truncated);
    }

    @ParameterizedTest(name = "version {0}")
    @ValueSource(ints = {0, 5, 6, 15})
    void ipv4EthertypeWithAnotherVersionIsMalformed(int version) {
        byte[] ip = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").version(version).tcp(DATA).build();
        PacketView v = decode(1, LinkBuilder.ethernet().type(0x0800).payload(ip));
        assertEquals(PacketView.Kind.UNDECODABLE, v.kind);
        assertEquals(Weird.BAD_IP_VERSION, v.weird);
        assertFalse(v.truncated);
    }

    @Test
    void ipv6EthertypeWithAnotherVersionIsMalformed() {
        byte[] ip = Ipv6Builder.ipv6("fd00::1", "fd00::2").version(4).tcp(DATA).build();
        PacketView v = decode(1, LinkBuilder.ethernet().type(0x86dd).payload(ip));
        assertEquals(Weird.BAD_IP_VERSION, v.weird);
        assertFalse(v.truncated);
    }

    @Test
    void laterIpv4FragmentsCarryNoTcpHeader() {
        // A later fragment's payload starts with bytes that would parse as a SYN: it must not be one.
        byte[] looksLikeSyn = tcp(1234, 80).seq(42).flags(SYN).build();
        byte[] ip = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").fragment(185, false).payload(6, looksLikeSyn).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.OTHER, v.kind);
        assertNull(v.weird);
        assertEquals(4, v.ipVersion, "addresses are still known");
        assertEquals(Addresses.hiLo("10.0.0.1")[1], v.srcLo);
        // More fragments with offset 1 as well.
        byte[] mid = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").fragment(1, true).payload(6, looksLikeSyn).build();
        assertEquals(PacketView.Kind.OTHER, decode(101, mid).kind);
    }

    @Test
    void firstFragmentStillHasTheTcpHeader() {
        byte[] ip = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").fragment(0, true).tcp(DATA).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertEquals(40000, v.srcPort);
    }

    @Test
    void udpIsUdpAndOtherProtocolsAreOther() {
        byte[] udp = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").payload(17, new byte[12]).build();
        PacketView v = decode(101, udp);
        assertEquals(PacketView.Kind.UDP, v.kind);
        assertNull(v.weird);
        byte[] udp6 = Ipv6Builder.ipv6("fd00::1", "fd00::2").payload(17, new byte[12]).build();
        assertEquals(PacketView.Kind.UDP, decode(101, udp6).kind);
        byte[] udpCut = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").payload(17, new byte[6]).build();
        assertEquals(PacketView.Kind.OTHER, decode(101, udpCut).kind, "no whole UDP header: an IP packet, no more");
        byte[] gre = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").payload(47, new byte[12]).build();
        assertEquals(PacketView.Kind.OTHER, decode(101, gre).kind);
        byte[] sctp6 = Ipv6Builder.ipv6("fd00::1", "fd00::2").payload(132, new byte[12]).build();
        assertEquals(PacketView.Kind.OTHER, decode(101, sctp6).kind);
    }

    @Test
    void ipv6AddressesHopLimitAndPayload() {
        byte[] ip = Ipv6Builder.ipv6("2001:db8:1:2:3:4:5:6", "2001:db8::ff").hopLimit(255).trafficClass(0xb8).flowLabel(0xabcde)
                .tcp(DATA).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertEquals(0x20010db800010002L, v.srcHi);
        assertEquals(0x0003000400050006L, v.srcLo);
        assertEquals(0x20010db800000000L, v.dstHi);
        assertEquals(0xffL, v.dstLo);
        assertEquals(255, v.ttl);
        assertEquals(57, v.ipPayloadLength);
        assertEquals(37, v.tcpPayloadLength);
    }

    @Test
    void ipv6ExtensionChainsAreWalked() {
        byte[] ip = Ipv6Builder.ipv6("fd00::1", "fd00::2")
                .hopByHop(Ipv6Builder.routerAlert())
                .destOpts(new byte[] {(byte) 0x1e, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) // 24-byte header
                .routing(2, 1, "fd00::9")
                .fragment(0, true, 0x01020304)
                .ah(0x100, 1, 12)
                .destOpts(new byte[0])
                .tcp(DATA).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.TCP, v.kind, () -> DecodeTesting.describe(v));
        assertEquals(40000, v.srcPort);
        assertEquals(100, v.seq);
        assertEquals(200, v.ack);
        assertEquals(57, v.ipPayloadLength, "extension headers are not upper-layer payload");
        assertEquals(37, v.tcpPayloadLength);
    }

    @Test
    void laterIpv6FragmentsCarryNoTcpHeader() {
        byte[] looksLikeSyn = tcp(1234, 80).seq(42).flags(SYN).build();
        byte[] ip = Ipv6Builder.ipv6("fd00::1", "fd00::2").hopByHop(new byte[0]).fragment(3, false, 7)
                .payload(6, looksLikeSyn).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.OTHER, v.kind);
        assertNull(v.weird);
        assertEquals(6, v.ipVersion);
    }

    @Test
    void ipv6NoNextHeaderIsOther() {
        byte[] ip = Ipv6Builder.ipv6("fd00::1", "fd00::2").destOpts(new byte[0]).payload(59, new byte[0]).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.OTHER, v.kind);
        assertNull(v.weird);
    }

    @Test
    void ipv6PayloadLengthZeroTrustsTheCapture() {
        byte[] ip = Ipv6Builder.ipv6("fd00::1", "fd00::2").payloadLength(0).tcp(DATA).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertEquals(57, v.ipPayloadLength);
        assertEquals(37, v.tcpPayloadLength);
    }

    @Test
    void snaplenCutPayloadStillDecodesTheHeaders() {
        byte[] ip = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").tcp(DATA).build();
        PacketView v = decodeCut(101, ip, 40);
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertFalse(v.truncated, "headers complete: only payload is missing, which is no anomaly");
        assertEquals(37, v.tcpPayloadLength, "the length the headers state");
    }
}
