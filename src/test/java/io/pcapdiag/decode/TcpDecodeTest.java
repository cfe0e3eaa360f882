package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decode;
import static io.pcapdiag.testing.TcpBuilder.tcp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.TcpBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** TCP (RFC 9293) fields. */
class TcpDecodeTest {
    private static PacketView v4(TcpBuilder t) {
        return decode(101, Ipv4Builder.ipv4("10.1.1.1", "10.2.2.2").tcp(t).build());
    }

    @ParameterizedTest(name = "flags 0x{0}")
    @ValueSource(ints = {0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0x12, 0x14, 0x11, 0xc2, 0xff, 0x00})
    void everyFlagBitIsKept(int flags) {
        PacketView v = v4(tcp(1, 2).flags(flags));
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertEquals(flags, v.flags);
        assertEquals((flags & 0x02) != 0, v.has(PacketView.SYN));
        assertEquals((flags & 0x10) != 0, v.has(PacketView.ACK));
        assertEquals((flags & 0x04) != 0, v.has(PacketView.RST));
        assertEquals((flags & 0x01) != 0, v.has(PacketView.FIN));
    }

    @Test
    void flagConstantsAreTheWireBits() {
        assertEquals(TcpBuilder.FIN, PacketView.FIN);
        assertEquals(TcpBuilder.SYN, PacketView.SYN);
        assertEquals(TcpBuilder.RST, PacketView.RST);
        assertEquals(TcpBuilder.PSH, PacketView.PSH);
        assertEquals(TcpBuilder.ACK, PacketView.ACK);
        assertEquals(TcpBuilder.URG, PacketView.URG);
        assertEquals(TcpBuilder.ECE, PacketView.ECE);
        assertEquals(TcpBuilder.CWR, PacketView.CWR);
    }

    @Test
    void sequenceNumbersUseAll32Bits() {
        PacketView v = v4(tcp(65535, 0).seq(0xffffffff).ack(0x80000000).flags(0x10).window(0));
        assertEquals(0xffffffff, v.seq);
        assertEquals(0x80000000, v.ack);
        assertEquals(65535, v.srcPort);
        assertEquals(0, v.dstPort);
        assertEquals(0, v.window);
        PacketView w = v4(tcp(1, 2).seq(0x7fffffff).ack(1).window(65535));
        assertEquals(0x7fffffff, w.seq);
        assertEquals(65535, w.window);
    }

    @Test
    void optionsAreNotPayload() {
        PacketView v = v4(tcp(1, 2).flags(0x02).options(TcpBuilder.linuxSynOptions()));
        assertEquals(40, v.ipPayloadLength);
        assertEquals(0, v.tcpPayloadLength);
        PacketView d = decode(101, Ipv6Builder.ipv6("fd00::1", "fd00::2")
                .tcp(tcp(1, 2).options(TcpBuilder.mss(1440)).payload(new byte[100])).build());
        assertEquals(100, d.tcpPayloadLength);
    }

    @ParameterizedTest(name = "data offset {0}")
    @ValueSource(ints = {0, 1, 4})
    void dataOffsetBelowFiveWordsIsMalformed(int words) {
        PacketView v = v4(tcp(1, 2).flags(0x02).dataOffsetWords(words));
        assertEquals(PacketView.Kind.UNDECODABLE, v.kind);
        assertEquals(Weird.BAD_TCP_HEADER_LEN, v.weird);
        assertFalse(v.truncated);
        assertFalse(Weird.isTruncation(v.weird));
    }

    @Test
    void dataOffsetBeyondThePacketLeavesNoNegativePayload() {
        // Data offset 15 (60 bytes) on a 20-byte header: header fields are fine, payload cannot be negative.
        PacketView v = v4(tcp(1, 2).flags(0x02).dataOffsetWords(15));
        assertEquals(0, v.tcpPayloadLength);
        assertTrue(v.tcpPayloadLength >= 0);
    }
}
