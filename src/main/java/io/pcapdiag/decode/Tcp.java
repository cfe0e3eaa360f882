package io.pcapdiag.decode;

/**
 * TCP (RFC 9293): ports, sequence numbers, flags and window, and a SYN's MSS option ({@link #options}). A segment to or
 * from a DNS port that starts with a whole DNS message (RFC 7766 8: a two-octet length, then the message) carries it
 * ({@link Dns}), and the whole messages right after it too (RFC 7766 6.2.1.1), one per decode ({@link Cursor#dnsMessage}).
 */
final class Tcp {
    private static final int OPTION_EOL = 0;
    private static final int OPTION_NOP = 1;
    private static final int OPTION_MSS = 2;
    private static final int MSS_LENGTH = 4;

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
        if (dataOffset > 20 && (v.flags & PacketView.SYN) != 0) {
            options(c, o + 20, o + dataOffset, v);
        }
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
     * Walks a SYN's options, from {@code o} to the header's {@code end} (its data offset), for the MSS option (RFC 9293
     * 3.1: kind 0 ends the list, kind 1 is one byte, every other kind has a length byte counting itself and the kind;
     * MSS is kind 2, length 4, RFC 9293 3.7.1). Only SYNs are walked: the MSS option is sent on no other segment and
     * Linux reads it on no other ({@code tcp_parse_options}, net/ipv4/tcp_input.c), and a bulk transfer's segments,
     * which carry timestamps, then cost nothing; so a bad option on a segment without SYN is not seen, nor flagged.
     *
     * <p>An option whose length is below 2 or runs past {@code end} ends the walk as Linux's does (its "silly options"
     * and "partial options"), and one of kind 2 and another length than 4 is not read; either is {@link
     * Weird#BAD_TCP_OPTION}, which leaves the segment's own fields, decoded already, as they are: the kind stays TCP. The
     * captured bytes ending inside the options (a short snap length) are no anomaly: the walk stops there, and an MSS
     * option not captured whole is not read. Of several MSS options the last is taken, as Linux takes it. Each step
     * moves on by at least one byte, within the 40 bytes of options a header holds: the walk always ends.
     */
    private static void options(Cursor c, int o, int end, PacketView v) {
        while (o < end && c.has(o, 1)) {
            int kind = c.u8(o);
            if (kind == OPTION_EOL) {
                return;
            }
            if (kind == OPTION_NOP) {
                o++;
                continue;
            }
            if (o + 2 > end) {
                badOption(v); // the length byte is past the header: the option cannot fit
                return;
            }
            if (!c.has(o + 1, 1)) {
                return;
            }
            int length = c.u8(o + 1);
            if (length < 2 || o + length > end) {
                badOption(v);
                return;
            }
            if (!c.has(o, length)) {
                return;
            }
            if (kind == OPTION_MSS) {
                if (length == MSS_LENGTH) {
                    v.tcpMss = c.u16(o + 2);
                } else {
                    badOption(v);
                }
            }
            o += length;
        }
    }

    /** A malformed option: named, not truncation, and the segment stays a TCP segment. */
    private static void badOption(PacketView v) {
        v.weird = Weird.BAD_TCP_OPTION;
        v.truncated = false;
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
