package io.pcapdiag.decode;

/** TCP (RFC 9293): ports, sequence numbers, flags and window; options are not needed. */
final class Tcp {
    private Tcp() {
    }

    static void decode(Cursor c, int o, PacketView v) {
        // Ports, seq, ack, data offset, flags and window: the first 16 bytes are all the tracker needs.
        if (!c.has(o, 16)) {
            Ipv4.flag(v, Weird.TRUNCATED_TCP);
            return;
        }
        int dataOffset = (c.u8(o + 12) >> 4) * 4;
        if (dataOffset < 20) {
            Ipv4.flag(v, Weird.BAD_TCP_HEADER_LEN);
            return;
        }
        v.kind = PacketView.Kind.TCP;
        v.flags = c.u8(o + 13);
        if (!c.fill) {
            return;
        }
        v.srcPort = c.u16(o);
        v.dstPort = c.u16(o + 2);
        v.seq = c.i32(o + 4);
        v.ack = c.i32(o + 8);
        v.window = c.u16(o + 14);
        v.tcpPayloadLength = Math.max(0, v.ipPayloadLength - dataOffset);
    }
}
