package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decode;
import static io.pcapdiag.decode.DecodeTesting.decodeCut;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static io.pcapdiag.testing.TcpBuilder.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Addresses;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** ICMP (RFC 792) and ICMPv6 (RFC 4443) errors and the packet they quote. */
class IcmpDecodeTest {
    static final byte[] SYN4 = Ipv4Builder.ipv4("10.244.0.5", "10.96.12.34")
            .tcp(tcp(43210, 8080).seq(0xcafef00d).flags(SYN).options(io.pcapdiag.testing.TcpBuilder.linuxSynOptions())).build();
    static final byte[] SYN6 = Ipv6Builder.ipv6("fd00::5", "fd00:96::1234")
            .tcp(tcp(43211, 443).seq(0x01234567).flags(SYN)).build();

    private static byte[] icmp4(String from, int type, int code, byte[] quoted, int quoteLen) {
        return Ipv4Builder.ipv4(from, "10.244.0.5").ttl(64).icmp(IcmpBuilder.error(type, code, quoted, quoteLen)).build();
    }

    private static byte[] icmp6(String from, int type, int code, byte[] quoted, int quoteLen) {
        return Ipv6Builder.ipv6(from, "fd00::5").icmpv6(IcmpBuilder.error(type, code, quoted, quoteLen)).build();
    }

    private static void assertQuotesSyn4(PacketView v) {
        long[] src = Addresses.hiLo("10.244.0.5");
        long[] dst = Addresses.hiLo("10.96.12.34");
        assertEquals(4, v.quotedVersion);
        assertEquals(src[0], v.quotedSrcHi);
        assertEquals(src[1], v.quotedSrcLo);
        assertEquals(dst[0], v.quotedDstHi);
        assertEquals(dst[1], v.quotedDstLo);
        assertEquals(6, v.quotedProtocol);
        assertTrue(v.quotedHasPorts);
        assertEquals(43210, v.quotedSrcPort);
        assertEquals(8080, v.quotedDstPort);
    }

    @Test
    void portUnreachableWithTheWholeSynQuoted() {
        PacketView v = decode(1, LinkBuilder.ethernet(icmp4("10.96.12.34", 3, 3, SYN4, 576)));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind, () -> DecodeTesting.describe(v));
        assertEquals(3, v.icmpType);
        assertEquals(3, v.icmpCode);
        assertEquals(64, v.ttl);
        assertEquals(Addresses.hiLo("10.96.12.34")[1], v.srcLo);
        assertQuotesSyn4(v);
        assertTrue(v.quotedHasSeq);
        assertEquals(0xcafef00d, v.quotedSeq);
        assertFalse(v.truncated);
        assertNull(v.weird);
    }

    @Test
    void rfc792MinimumQuoteHasTheSeq() {
        PacketView v = decode(101, icmp4("192.0.2.1", 3, 1, SYN4, 28));
        assertQuotesSyn4(v);
        assertTrue(v.quotedHasSeq);
        assertEquals(0xcafef00d, v.quotedSeq);
        assertFalse(v.truncated);
    }

    @ParameterizedTest(name = "quote of {0} bytes")
    @ValueSource(ints = {24, 25, 26, 27})
    void quoteCutBeforeTheSeqStillHasThePorts(int quoteLen) {
        PacketView v = decode(101, icmp4("192.0.2.1", 3, 13, SYN4, quoteLen));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        assertQuotesSyn4(v);
        assertFalse(v.quotedHasSeq);
        assertTrue(v.truncated);
        assertEquals(Weird.TRUNCATED_ICMP_QUOTE, v.weird);
    }

    @ParameterizedTest(name = "quote of {0} bytes")
    @ValueSource(ints = {0, 1, 19, 20, 23})
    void quoteCutBeforeThePortsHasNoPorts(int quoteLen) {
        PacketView v = decode(101, icmp4("192.0.2.1", 3, 1, SYN4, quoteLen));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        assertEquals(3, v.icmpType);
        assertEquals(1, v.icmpCode);
        assertFalse(v.quotedHasPorts);
        assertFalse(v.quotedHasSeq);
        assertTrue(v.truncated);
        assertEquals(Weird.TRUNCATED_ICMP_QUOTE, v.weird);
    }

    @Test
    void quoteCutByTheSnaplenIsTheSameAsByTheRouter() {
        byte[] frame = LinkBuilder.ethernet(icmp4("192.0.2.1", 3, 3, SYN4, 576));
        int quoteStart = 14 + 20 + 8;
        PacketView v = decodeCut(1, frame, quoteStart + 20 + 6);
        assertQuotesSyn4(v);
        assertFalse(v.quotedHasSeq);
        assertTrue(v.truncated);
        assertEquals(Weird.TRUNCATED_ICMP_QUOTE, v.weird);
    }

    @Test
    void quotedHeaderWithOptions() {
        byte[] syn = Ipv4Builder.ipv4("10.244.0.5", "10.96.12.34").options(Ipv4Builder.recordRoute(3))
                .tcp(tcp(43210, 8080).seq(0xcafef00d).flags(SYN)).build();
        PacketView v = decode(101, icmp4("192.0.2.1", 3, 3, syn, 36 + 8));
        assertQuotesSyn4(v);
        assertTrue(v.quotedHasSeq);
        assertEquals(0xcafef00d, v.quotedSeq);
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {3, 11, 12})
    void errorTypesAreErrors(int type) {
        PacketView v = decode(101, icmp4("192.0.2.1", type, 0, SYN4, 28));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        assertEquals(type, v.icmpType);
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {0, 4, 5, 8, 13, 14})
    void otherIcmpIsNotAnError(int type) {
        PacketView v = decode(101, icmp4("192.0.2.1", type, 0, SYN4, 28));
        assertEquals(PacketView.Kind.OTHER, v.kind);
        assertNull(v.weird);
        assertFalse(v.truncated);
    }

    @Test
    void quotedUdpHasItsPorts() {
        byte[] udp = Ipv4Builder.ipv4("10.244.0.5", "10.96.0.10").payload(17, new byte[] {(byte) 0x9c, 0x41, 0, 53, 0, 8, 0, 0}).build();
        PacketView v = decode(101, icmp4("10.96.0.10", 3, 3, udp, 28));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        assertEquals(17, v.quotedProtocol);
        assertTrue(v.quotedHasPorts);
        assertEquals(40001, v.quotedSrcPort);
        assertEquals(53, v.quotedDstPort);
        assertFalse(v.quotedHasSeq);
        assertFalse(v.truncated);
    }

    @Test
    void quotedUdpCutBeforeItsPortsIsTruncated() {
        byte[] udp = Ipv4Builder.ipv4("10.244.0.5", "10.96.0.10").payload(17, new byte[] {(byte) 0x9c, 0x41}).build();
        PacketView v = decode(101, icmp4("10.96.0.10", 3, 3, udp, 22));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        assertFalse(v.quotedHasPorts);
        assertTrue(v.truncated);
    }

    @Test
    void icmpHeaderShorterThanEightBytesIsTruncated() {
        byte[] ip = Ipv4Builder.ipv4("192.0.2.1", "10.244.0.5").icmp(new byte[] {3, 3, 0, 0, 0, 0}).build();
        PacketView v = decode(101, ip);
        assertEquals(PacketView.Kind.UNDECODABLE, v.kind);
        assertTrue(v.truncated);
        assertEquals(Weird.TRUNCATED_ICMP, v.weird);
    }

    @Test
    void icmpv6PortUnreachableQuotingTheSyn() {
        PacketView v = decode(1, LinkBuilder.ethernet(icmp6("fd00:96::1234", 1, 4, SYN6, 1232)));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind, () -> DecodeTesting.describe(v));
        assertEquals(1, v.icmpType);
        assertEquals(4, v.icmpCode);
        assertEquals(6, v.quotedVersion);
        long[] src = Addresses.hiLo("fd00::5");
        long[] dst = Addresses.hiLo("fd00:96::1234");
        assertEquals(src[0], v.quotedSrcHi);
        assertEquals(src[1], v.quotedSrcLo);
        assertEquals(dst[0], v.quotedDstHi);
        assertEquals(dst[1], v.quotedDstLo);
        assertEquals(6, v.quotedProtocol);
        assertEquals(43211, v.quotedSrcPort);
        assertEquals(443, v.quotedDstPort);
        assertTrue(v.quotedHasSeq);
        assertEquals(0x01234567, v.quotedSeq);
        assertFalse(v.truncated);
    }

    @Test
    void icmpv6QuoteThroughExtensionHeaders() {
        byte[] syn = Ipv6Builder.ipv6("fd00::5", "fd00:96::1234").hopByHop(Ipv6Builder.routerAlert())
                .destOpts(new byte[6]).tcp(tcp(43211, 443).seq(0x01234567).flags(SYN)).build();
        PacketView v = decode(101, icmp6("fd00::1", 1, 0, syn, 1232));
        assertEquals(6, v.quotedProtocol);
        assertEquals(43211, v.quotedSrcPort);
        assertEquals(0x01234567, v.quotedSeq);
        assertFalse(v.truncated);
    }

    @Test
    void icmpv6QuoteCutBeforeTheSeq() {
        PacketView v = decode(101, icmp6("fd00::1", 1, 3, SYN6, 40 + 6));
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        assertTrue(v.quotedHasPorts);
        assertEquals(443, v.quotedDstPort);
        assertFalse(v.quotedHasSeq);
        assertTrue(v.truncated);
        assertEquals(Weird.TRUNCATED_ICMP_QUOTE, v.weird);
        PacketView w = decode(101, icmp6("fd00::1", 1, 3, SYN6, 39));
        assertFalse(w.quotedHasPorts);
        assertEquals(Weird.TRUNCATED_ICMP_QUOTE, w.weird);
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void icmpv6ErrorTypes(int type) {
        assertEquals(PacketView.Kind.ICMP_ERROR, decode(101, icmp6("fd00::1", type, 0, SYN6, 100)).kind);
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {128, 129, 133, 134, 135, 136})
    void icmpv6NonErrors(int type) {
        PacketView v = decode(101, icmp6("fd00::1", type, 0, SYN6, 100));
        assertEquals(PacketView.Kind.OTHER, v.kind);
        assertNull(v.weird);
    }

    @Test
    void icmpv6HeaderCut() {
        byte[] ip = Ipv6Builder.ipv6("fd00::1", "fd00::5").icmpv6(new byte[] {1, 4, 0, 0}).build();
        PacketView v = decode(101, ip);
        assertTrue(v.truncated);
        assertEquals(Weird.TRUNCATED_ICMP, v.weird);
    }
}
