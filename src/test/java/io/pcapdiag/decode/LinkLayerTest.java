package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decode;
import static io.pcapdiag.testing.LinkBuilder.MAC_A;
import static io.pcapdiag.testing.LinkBuilder.MAC_B;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Addresses;
import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import java.nio.ByteOrder;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class LinkLayerTest {
    static final byte[] SYN4 = Ipv4Builder.ipv4("10.244.1.7", "10.96.0.1").ttl(63)
            .tcp(TcpBuilder.tcp(51000, 443).seq(0xdeadbeef).flags(TcpBuilder.SYN).window(65535)).build();
    static final byte[] SYN6 = Ipv6Builder.ipv6("fd00:10:244::7", "fd00:10:96::1").hopLimit(62)
            .tcp(TcpBuilder.tcp(51001, 8443).seq(7).flags(TcpBuilder.SYN)).build();

    private static void assertSyn4(PacketView v) {
        assertEquals(PacketView.Kind.TCP, v.kind, () -> DecodeTesting.describe(v));
        assertFalse(v.truncated);
        assertNull(v.weird);
        assertEquals(4, v.ipVersion);
        long[] s = Addresses.hiLo("10.244.1.7");
        long[] d = Addresses.hiLo("10.96.0.1");
        assertEquals(s[0], v.srcHi);
        assertEquals(s[1], v.srcLo);
        assertEquals(d[0], v.dstHi);
        assertEquals(d[1], v.dstLo);
        assertEquals(63, v.ttl);
        assertEquals(51000, v.srcPort);
        assertEquals(443, v.dstPort);
        assertEquals(0xdeadbeef, v.seq);
        assertEquals(PacketView.SYN, v.flags);
    }

    private static void assertSyn6(PacketView v) {
        assertEquals(PacketView.Kind.TCP, v.kind, () -> DecodeTesting.describe(v));
        assertNull(v.weird);
        assertEquals(6, v.ipVersion);
        long[] s = Addresses.hiLo("fd00:10:244::7");
        assertEquals(s[0], v.srcHi);
        assertEquals(s[1], v.srcLo);
        assertEquals(62, v.ttl);
        assertEquals(51001, v.srcPort);
        assertEquals(8443, v.dstPort);
    }

    static Stream<Arguments> linkTypes() {
        Function<byte[], byte[]> raw = ip -> ip;
        return Stream.of(
                Arguments.of("ethernet", LinkBuilder.LINKTYPE_ETHERNET, (Function<byte[], byte[]>) LinkBuilder::ethernet),
                Arguments.of("sll", LinkBuilder.LINKTYPE_LINUX_SLL, (Function<byte[], byte[]>) ip -> LinkBuilder.sll(MAC_A, ip)),
                Arguments.of("sll2", LinkBuilder.LINKTYPE_LINUX_SLL2, (Function<byte[], byte[]>) ip -> LinkBuilder.sll2(MAC_A, ip)),
                Arguments.of("raw", LinkBuilder.LINKTYPE_RAW, raw),
                Arguments.of("raw-12", 12, raw),
                Arguments.of("raw-14", 14, raw),
                Arguments.of("null-le", LinkBuilder.LINKTYPE_NULL, (Function<byte[], byte[]>) ip -> LinkBuilder.bsdNull(
                        ip[0] >> 4 == 4 ? 2 : 30, ByteOrder.LITTLE_ENDIAN, ip)),
                Arguments.of("null-be", LinkBuilder.LINKTYPE_NULL, (Function<byte[], byte[]>) ip -> LinkBuilder.bsdNull(
                        ip[0] >> 4 == 4 ? 2 : 28, ByteOrder.BIG_ENDIAN, ip)),
                Arguments.of("loop", LinkBuilder.LINKTYPE_LOOP, (Function<byte[], byte[]>) ip -> LinkBuilder.loop(
                        ip[0] >> 4 == 4 ? 2 : 24, ip)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("linkTypes")
    void everyLinkTypeCarriesIpv4AndIpv6(String name, int linkType, Function<byte[], byte[]> wrap) {
        assertSyn4(decode(linkType, wrap.apply(SYN4)));
        assertSyn6(decode(linkType, wrap.apply(SYN6)));
    }

    @Test
    void rawIpv4AndIpv6LinkTypesTrustTheVersionNibble() {
        assertSyn4(decode(LinkBuilder.LINKTYPE_IPV4, SYN4));
        assertSyn6(decode(LinkBuilder.LINKTYPE_IPV6, SYN6));
    }

    @Test
    void ethernetMacs() {
        PacketView v = decode(1, LinkBuilder.ethernet().src(0x0a0b0c0d0e0fL).dst(0xfffefdfcfbfaL).payload(SYN4));
        assertTrue(v.hasSrcMac);
        assertTrue(v.hasDstMac);
        assertEquals(0x0a0b0c0d0e0fL, v.srcMac);
        assertEquals(0xfffefdfcfbfaL, v.dstMac);
    }

    @Test
    void cookedHeadersGiveTheSourceMacOnlyForEthernetAddresses() {
        PacketView v1 = decode(113, LinkBuilder.sll(MAC_B, SYN4));
        assertTrue(v1.hasSrcMac);
        assertFalse(v1.hasDstMac);
        assertEquals(MAC_B, v1.srcMac);
        PacketView v2 = decode(276, LinkBuilder.sll2(MAC_B, SYN4));
        assertTrue(v2.hasSrcMac);
        assertEquals(MAC_B, v2.srcMac);
        // A tun device (ARPHRD_NONE) has no link address; loopback has a 6-byte all-zero one of type 772.
        PacketView tun = decode(113, LinkBuilder.sll(0, LinkBuilder.ARPHRD_NONE, new byte[0], 0x0800, SYN4));
        assertFalse(tun.hasSrcMac);
        assertSyn4(tun);
        PacketView lo = decode(276, LinkBuilder.sll2(0x86dd, 1, LinkBuilder.ARPHRD_LOOPBACK, 0, new byte[6], SYN6));
        assertFalse(lo.hasSrcMac);
        assertSyn6(lo);
    }

    @Test
    void vlanStacksAreFollowed() {
        assertSyn4(decode(1, LinkBuilder.ethernet().tag(0x8100, 100).payload(SYN4)));
        assertSyn4(decode(1, LinkBuilder.ethernet().tag(0x88a8, 10).tag(0x8100, 20).payload(SYN4)));
        assertSyn6(decode(1, LinkBuilder.ethernet().tag(0x9100, 1).tag(0x88a8, 2).tag(0x8100, 3).payload(SYN6)));
        // libpcap puts a VLAN tag of a cooked capture back after the cooked header.
        byte[] tagged = new Buf().u16(42).u16(0x0800).bytes(SYN4).toByteArray(); // TCI, inner ethertype
        assertSyn4(decode(113, LinkBuilder.sll(0, 1, Addresses.macBytes(MAC_A), 0x8100, tagged)));
        assertSyn4(decode(276, LinkBuilder.sll2(0x8100, 2, 1, 0, Addresses.macBytes(MAC_A), tagged)));
    }

    @Test
    void ethernetPaddingIsNotPayload() {
        byte[] rst = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2")
                .tcp(TcpBuilder.tcp(80, 40000).flags(TcpBuilder.RST | TcpBuilder.ACK).seq(1).ack(2)).build();
        byte[] frame = LinkBuilder.ethernet(rst);
        byte[] padded = Buf.concat(frame, new byte[] {(byte) 0xaa, (byte) 0xbb, (byte) 0xcc, (byte) 0xdd, 1, 2});
        PacketView v = decode(1, padded);
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertEquals(20, v.ipPayloadLength);
        assertEquals(0, v.tcpPayloadLength);
        assertNull(v.weird);
        // IPv6 likewise: the payload length field, not the frame, bounds the packet.
        byte[] syn6 = Buf.concat(LinkBuilder.ethernet(SYN6), new byte[] {9, 9, 9, 9});
        PacketView v6 = decode(1, syn6);
        assertEquals(20, v6.ipPayloadLength);
        assertEquals(0, v6.tcpPayloadLength);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 24, 28, 30})
    void everyBsdIpv6FamilyInEitherByteOrder(int family) {
        assertSyn6(decode(0, LinkBuilder.bsdNull(family, ByteOrder.LITTLE_ENDIAN, SYN6)));
        assertSyn6(decode(0, LinkBuilder.bsdNull(family, ByteOrder.BIG_ENDIAN, SYN6)));
    }

    @Test
    void notIpIsOtherAndNoAnomaly() {
        byte[] arp = new byte[28];
        PacketView v = decode(1, LinkBuilder.ethernet().type(0x0806).payload(arp));
        assertEquals(PacketView.Kind.OTHER, v.kind);
        assertNull(v.weird);
        assertFalse(v.truncated);
        assertEquals(0, v.ipVersion);
        PacketView ipx = decode(0, LinkBuilder.bsdNull(23, ByteOrder.LITTLE_ENDIAN, SYN4));
        assertEquals(PacketView.Kind.OTHER, ipx.kind);
        assertNull(ipx.weird);
        PacketView loopUnknown = decode(108, LinkBuilder.loop(7, SYN4));
        assertEquals(PacketView.Kind.OTHER, loopUnknown.kind);
    }

    @Test
    void unknownLinkTypeIsUndecodableNotTruncated() {
        PacketView v = decode(147, SYN4);
        assertEquals(PacketView.Kind.UNDECODABLE, v.kind);
        assertEquals(Weird.UNKNOWN_LINK_TYPE, v.weird);
        assertFalse(v.truncated);
        assertTrue(LinkTypes.supported(1));
        assertFalse(LinkTypes.supported(147));
        assertEquals("LINUX_SLL2", LinkTypes.name(276));
        assertEquals("147", LinkTypes.name(147));
    }

    /** The supported link types (what live mode accepts, and names) are the ones the decoder strips, and no others. */
    @Test
    void supportedLinkTypesAreTheOnesStripped() {
        int supported = 0;
        for (int linkType = -1; linkType <= 300; linkType++) {
            Cursor c = new Cursor();
            c.b = new byte[0];
            boolean stripped = LinkTypes.strip(linkType, c, 0, new PacketView()) != LinkTypes.UNSUPPORTED;
            assertEquals(stripped, LinkTypes.supported(linkType), "link type " + linkType);
            supported += stripped ? 1 : 0;
        }
        assertEquals(10, supported);
    }

    @Test
    void rawLinkWithABadVersionNibbleIsMalformed() {
        byte[] ip = SYN4.clone();
        ip[0] = 0x75;
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.UNDECODABLE, v.kind);
        assertEquals(Weird.BAD_IP_VERSION, v.weird);
        assertFalse(v.truncated);
    }

    @Test
    void oneDecoderServesFramesOfDifferentLinkTypesInTurn() {
        Decoder d = new Decoder();
        PacketView v = new PacketView();
        for (int round = 0; round < 3; round++) {
            d.decode(io.pcapdiag.testing.Frames.frame(1, LinkBuilder.ethernet(SYN4)), v);
            assertSyn4(v);
            d.decode(io.pcapdiag.testing.Frames.frame(147, SYN4), v);
            assertEquals(Weird.UNKNOWN_LINK_TYPE, v.weird);
            d.decode(io.pcapdiag.testing.Frames.frame(101, SYN6), v);
            assertSyn6(v);
            assertFalse(v.hasSrcMac, "MACs of the previous frame must not leak");
        }
    }
}
