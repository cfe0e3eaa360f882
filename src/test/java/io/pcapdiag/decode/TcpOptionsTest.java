package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decodeCut;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static io.pcapdiag.testing.TcpBuilder.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.pcapdiag.decode.MtuFixtures.Segment;
import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.Frames;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.TcpBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A SYN's options (RFC 9293 3.1) and its MSS (RFC 9293 3.7.1): {@link PacketView#tcpMss} and {@link Weird#BAD_TCP_OPTION}. */
class TcpOptionsTest {
    static List<Segment> segments() {
        return MtuFixtures.segments();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("segments")
    void mssAndAnomaly(Segment s) {
        PacketView v = decodeCut(MtuFixtures.LINK_TYPE, s.packet(), s.capLen());
        String d = DecodeTesting.describe(v);
        assertEquals(PacketView.Kind.TCP, v.kind, d);
        assertEquals(s.mss(), v.tcpMss, d);
        assertEquals(s.weird(), v.weird, d);
        assertFalse(v.truncated, d);
        // Whatever the options, the segment's own fields are decoded as without them.
        assertEquals(Set.of(MtuFixtures.CLIENT_PORT, 80), Set.of(v.srcPort, v.dstPort), d);
        assertEquals(MtuFixtures.SEQ, v.seq, d);
        assertEquals(s.flags(), v.flags, d);
        assertEquals(64240, v.window, d);
        assertEquals(s.payload(), v.tcpPayloadLength, d);
    }

    @Test
    void aBadOptionIsAMalformationNotATruncation() {
        assertFalse(Weird.isTruncation(Weird.BAD_TCP_OPTION));
    }

    /** Cut at every length from the ports on: the MSS is there exactly when its 4 bytes are, and no cut is an anomaly. */
    @Test
    void everySnapLengthOfLinuxsSyn() {
        byte[] syn = Ipv4Builder.ipv4("10.244.0.18", "10.244.1.20")
                .tcp(tcp(40001, 80).seq(1).flags(SYN).options(TcpBuilder.linuxSynOptions())).build();
        for (int cut = 20 + 16; cut <= syn.length; cut++) {
            PacketView v = decodeCut(101, syn, cut);
            String d = "cut at " + cut + ": " + DecodeTesting.describe(v);
            assertEquals(PacketView.Kind.TCP, v.kind, d);
            assertEquals(cut >= 40 + 4 ? 1460 : -1, v.tcpMss, d);
            assertEquals(null, v.weird, d);
            assertFalse(v.truncated, d);
        }
    }

    /** A bad length is seen once its byte is captured, never before, and never as truncation. */
    @Test
    void everySnapLengthOfASynWithALengthZeroOption() {
        byte[] syn = Ipv4Builder.ipv4("10.244.0.18", "10.244.1.20")
                .tcp(tcp(40001, 80).seq(1).flags(SYN).options(Buf.hex("020405b4 0101 1e00"))).build();
        for (int cut = 20 + 16; cut <= syn.length; cut++) {
            PacketView v = decodeCut(101, syn, cut);
            String d = "cut at " + cut + ": " + DecodeTesting.describe(v);
            assertEquals(PacketView.Kind.TCP, v.kind, d);
            assertEquals(cut >= 44 ? 1460 : -1, v.tcpMss, d);
            assertEquals(cut >= 48 ? Weird.BAD_TCP_OPTION : null, v.weird, d);
            assertFalse(v.truncated, d);
        }
    }

    /**
     * An option of every length at the start of 40 bytes of options, then NOPs, then MSS in the last 4: lengths below 2
     * are bad, 2 to 36 land on a NOP or on the MSS, 40 takes all, above 40 run past the header, and 37 to 39 land inside
     * the MSS, whose bytes then claim more than is left. The walk always ends, and never reads the payload (which would
     * read as MSS 1234).
     */
    @Test
    void everyOptionLength() {
        for (int length = 0; length <= 255; length++) {
            byte[] options = new byte[40];
            Arrays.fill(options, (byte) 1);
            options[0] = 30;
            options[1] = (byte) length;
            System.arraycopy(TcpBuilder.mss(1460), 0, options, 36, 4);
            byte[] syn = Ipv4Builder.ipv4("10.244.0.18", "10.244.1.20")
                    .tcp(tcp(40001, 80).seq(1).flags(SYN).options(options).payload(TcpBuilder.mss(1234))).build();
            PacketView v = decodeCut(101, syn, syn.length);
            String d = "length " + length + ": " + DecodeTesting.describe(v);
            assertEquals(PacketView.Kind.TCP, v.kind, d);
            assertEquals(4, v.tcpPayloadLength, d);
            if (length >= 2 && length <= 36) {
                assertEquals(1460, v.tcpMss, d);
                assertEquals(null, v.weird, d);
            } else if (length == 40) {
                assertEquals(-1, v.tcpMss, d);
                assertEquals(null, v.weird, d);
            } else {
                assertEquals(-1, v.tcpMss, d);
                assertEquals(Weird.BAD_TCP_OPTION, v.weird, d);
            }
        }
    }

    /** One view decoding packet after packet: the MSS of one is never another's. */
    @Test
    void aReusedViewForgetsTheMss() {
        byte[] syn = Ipv4Builder.ipv4("10.244.0.18", "10.244.1.20")
                .tcp(tcp(40001, 80).seq(1).flags(SYN).options(TcpBuilder.mss(1460))).build();
        byte[] ack = Ipv4Builder.ipv4("10.244.0.18", "10.244.1.20").tcp(tcp(40001, 80).seq(2).flags(0x10)).build();
        byte[] icmp = Ipv4Builder.ipv4("10.244.1.1", "10.244.0.18").icmp(IcmpBuilder.v4Unreachable(3, syn, 576)).build();
        Decoder decoder = new Decoder();
        PacketView v = new PacketView();
        decoder.decode(Frames.frame(101, syn), v);
        assertEquals(1460, v.tcpMss);
        decoder.decode(Frames.frame(101, ack), v);
        assertEquals(-1, v.tcpMss);
        decoder.decode(Frames.frame(101, syn), v);
        decoder.decode(Frames.frame(101, icmp), v);
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind);
        assertEquals(-1, v.tcpMss, "a quoted SYN's options are not the error's");
    }
}
