package io.pcapdiag.decode;

/**
 * TCP (RFC 9293): ports, sequence numbers, flags and window; options are not needed. A segment to or from a DNS port
 * that starts with a whole DNS message (RFC 7766 8: a two-octet length, then the message) carries it ({@link Dns}), and
 * the whole messages right after it too (RFC 7766 6.2.1.1), one per decode ({@link Cursor#dnsMessage}).
 */
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
        int payload = Math.max(0, v.ipPayloadLength - dataOffset);
        if (payload >= 2 + 12 && (c.dnsPort(c.u16(o)) || c.dnsPort(c.u16(o + 2)))) {
            message(c, o + dataOffset, payload, v);
        }
        v.srcPort = c.u16(o);
        v.dstPort = c.u16(o + 2);
        v.seq = c.i32(o + 4);
        v.ack = c.i32(o + 8);
        v.window = c.u16(o + 14);
        v.tcpPayloadLength = payload;
    }

    /**
     * The DNS message at the start of a segment's payload, when the segment holds all of it: a message that spans
     * segments is not read (no reassembly), and a segment that continues one does not start with a length and a
     * well-formed message, so what does not read as one (a length past the segment, or a fault other than the
     * capture's cut) is taken as no DNS and no anomaly. The {@link Cursor#dnsMessage}-th message is read instead of the
     * first when the segment holds that many whole ones after it; whether one more follows is {@link PacketView#dnsMore}.
     */
    private static void message(Cursor c, int m, int payload, PacketView v) {
        int end = m + payload;
        for (int skip = c.dnsMessage; skip > 0; skip--) {
            if (!whole(c, m, end)) {
                return;
            }
            m += 2 + c.u16(m);
        }
        if (!whole(c, m, end)) {
            return;
        }
        int length = c.u16(m);
        String weird = v.weird;
        boolean truncated = v.truncated;
        Dns.decode(c, m + 2, m + 2 + length, v);
        if (v.dnsMalformed && !Weird.TRUNCATED_DNS.equals(v.weird)) {
            v.dns = false;
            v.dnsMalformed = false;
            v.weird = weird;
            v.truncated = truncated;
        } else {
            v.dnsMore = whole(c, m + 2 + length, end);
        }
    }

    /** A length at {@code m} whose message fits before the payload's {@code end} and is long enough for a header. */
    private static boolean whole(Cursor c, int m, int end) {
        if (!c.has(m, 2)) {
            return false;
        }
        int length = c.u16(m);
        return length >= 12 && m + 2 + length <= end;
    }
}
