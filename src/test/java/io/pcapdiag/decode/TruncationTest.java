package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decodeCut;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static io.pcapdiag.testing.TcpBuilder.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Cuts valid frames at every length and checks that the decoder names the layer that ran out, flags
 * truncation, and never throws. Expected layers come from where the builders put each header.
 */
class TruncationTest {
    private static final byte[] SYN4_OPTS = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").options(new byte[] {1, 1, 1, 1})
            .tcp(tcp(1000, 80).seq(5).flags(SYN).options(TcpBuilder.linuxSynOptions())).build();
    private static final byte[] SYN6_EXT = Ipv6Builder.ipv6("fd00::1", "fd00::2")
            .hopByHop(new byte[0])                                   // 8 bytes
            .destOpts(new byte[] {(byte) 0x1e, 12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) // 16 bytes
            .tcp(tcp(1000, 80).seq(5).flags(SYN)).build();

    /** The boundaries of one frame: where each needed part ends, and its weird. */
    private record Layer(int end, String weird) {
    }

    private static void sweep(int linkType, byte[] frame, Layer... layers) {
        for (int cut = 0; cut <= frame.length; cut++) {
            PacketView v = decodeCut(linkType, frame, cut);
            String expected = null;
            for (Layer l : layers) {
                if (cut < l.end) {
                    expected = l.weird;
                    break;
                }
            }
            final int c = cut;
            String got = DecodeTesting.describe(v);
            assertEquals(expected, v.weird, () -> "cut at " + c + ": " + got);
            assertEquals(expected != null, v.truncated, () -> "cut at " + c + ": " + got);
            if (expected != null && !expected.equals(Weird.TRUNCATED_ICMP_QUOTE)) {
                assertEquals(PacketView.Kind.UNDECODABLE, v.kind, () -> "cut at " + c + ": " + got);
            }
        }
    }

    @Test
    void ethernetIpv4WithOptionsTcp() {
        byte[] f = LinkBuilder.ethernet(SYN4_OPTS);
        sweep(1, f,
                new Layer(14, Weird.TRUNCATED_LINK),
                new Layer(14 + 24, Weird.TRUNCATED_IP),
                new Layer(14 + 24 + 16, Weird.TRUNCATED_TCP));
        PacketView whole = decodeCut(1, f, f.length);
        assertEquals(PacketView.Kind.TCP, whole.kind);
    }

    @Test
    void vlanStackIpv6ExtensionsTcp() {
        byte[] f = LinkBuilder.ethernet().tag(0x88a8, 5).tag(0x8100, 6).payload(SYN6_EXT);
        sweep(1, f,
                new Layer(14 + 8, Weird.TRUNCATED_LINK),
                new Layer(22 + 40, Weird.TRUNCATED_IP),
                new Layer(62 + 8 + 16, Weird.TRUNCATED_IPV6_EXT),
                new Layer(86 + 16, Weird.TRUNCATED_TCP));
    }

    @Test
    void cookedV2Ipv4IcmpErrorQuotingASyn() {
        byte[] syn = Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").tcp(tcp(1000, 80).seq(5).flags(SYN)).build();
        byte[] icmp = Ipv4Builder.ipv4("10.0.0.2", "10.0.0.1").icmp(IcmpBuilder.v4Unreachable(3, syn, 28)).build();
        byte[] f = LinkBuilder.sll2(LinkBuilder.MAC_A, icmp);
        sweep(276, f,
                new Layer(20, Weird.TRUNCATED_LINK),
                new Layer(40, Weird.TRUNCATED_IP),
                new Layer(48, Weird.TRUNCATED_ICMP),
                new Layer(48 + 28, Weird.TRUNCATED_ICMP_QUOTE));
        for (int cut = 48; cut <= f.length; cut++) {
            PacketView v = decodeCut(276, f, cut);
            assertEquals(PacketView.Kind.ICMP_ERROR, v.kind, "a cut quote is still an error");
            assertEquals(cut >= 48 + 24, v.quotedHasPorts, "ports at cut " + cut);
            assertEquals(cut >= 48 + 28, v.quotedHasSeq, "seq at cut " + cut);
        }
    }

    @Test
    void cookedV1Ipv6Icmpv6ErrorQuotingASyn() {
        byte[] syn = Ipv6Builder.ipv6("fd00::1", "fd00::2").tcp(tcp(1000, 80).seq(5).flags(SYN)).build();
        byte[] icmp = Ipv6Builder.ipv6("fd00::2", "fd00::1").icmpv6(IcmpBuilder.v6Unreachable(4, syn, 60)).build();
        byte[] f = LinkBuilder.sll(LinkBuilder.MAC_A, icmp);
        sweep(113, f,
                new Layer(16, Weird.TRUNCATED_LINK),
                new Layer(56, Weird.TRUNCATED_IP),
                new Layer(64, Weird.TRUNCATED_ICMP),
                new Layer(64 + 48, Weird.TRUNCATED_ICMP_QUOTE));
    }

    @Test
    void bsdNullAndRaw() {
        sweep(0, LinkBuilder.bsdNull(2, ByteOrder.LITTLE_ENDIAN, SYN4_OPTS),
                new Layer(4, Weird.TRUNCATED_LINK),
                new Layer(4 + 24, Weird.TRUNCATED_IP),
                new Layer(4 + 24 + 16, Weird.TRUNCATED_TCP));
        sweep(108, LinkBuilder.loop(24, SYN6_EXT),
                new Layer(4, Weird.TRUNCATED_LINK),
                new Layer(44, Weird.TRUNCATED_IP),
                new Layer(44 + 24, Weird.TRUNCATED_IPV6_EXT),
                new Layer(68 + 16, Weird.TRUNCATED_TCP));
        // Raw IP: not even a version nibble is a truncated IP header.
        sweep(101, SYN4_OPTS,
                new Layer(24, Weird.TRUNCATED_IP),
                new Layer(24 + 16, Weird.TRUNCATED_TCP));
    }

    @Test
    void truncationIdsAreTruncationsAndMalformationIdsAreNot() {
        for (String id : new String[] {Weird.TRUNCATED_LINK, Weird.TRUNCATED_IP, Weird.TRUNCATED_IPV6_EXT, Weird.TRUNCATED_TCP,
                Weird.TRUNCATED_ICMP, Weird.TRUNCATED_ICMP_QUOTE}) {
            assertTrue(Weird.isTruncation(id), id);
        }
        for (String id : new String[] {Weird.UNKNOWN_LINK_TYPE, Weird.BAD_IP_VERSION, Weird.BAD_IP_HEADER_LEN,
                Weird.BAD_IP_TOTAL_LEN, Weird.BAD_TCP_HEADER_LEN, Weird.BAD_TCP_OPTION}) {
            assertFalse(Weird.isTruncation(id), id);
        }
    }
}
