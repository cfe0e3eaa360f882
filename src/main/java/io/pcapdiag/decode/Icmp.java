package io.pcapdiag.decode;

/**
 * ICMP (RFC 792) and ICMPv6 (RFC 4443) errors. An error quotes the offending packet: its IP header and
 * at least the first 8 bytes of its payload, which for TCP are the ports and the sequence number. The errors of path
 * MTU discovery also state the MTU the packet did not fit ({@link PacketView#icmpMtu}).
 */
final class Icmp {
    static final int V4_UNREACHABLE = 3;
    /** Type 3's code "fragmentation needed and DF set" (RFC 792), which carries the next-hop MTU (RFC 1191 4). */
    static final int V4_FRAGMENTATION_NEEDED = 4;
    static final int V4_TIME_EXCEEDED = 11;
    static final int V4_PARAMETER_PROBLEM = 12;
    static final int V6_UNREACHABLE = 1;
    static final int V6_PACKET_TOO_BIG = 2;
    static final int V6_TIME_EXCEEDED = 3;
    static final int V6_PARAMETER_PROBLEM = 4;

    private Icmp() {
    }

    static void decodeV4(Cursor c, int o, PacketView v) {
        if (!c.has(o, 8)) {
            Ipv4.flag(v, Weird.TRUNCATED_ICMP);
            return;
        }
        int type = c.u8(o);
        if (type != V4_UNREACHABLE && type != V4_TIME_EXCEEDED && type != V4_PARAMETER_PROBLEM) {
            return; // echo, redirect and the like answer no connection attempt
        }
        error(c, o, v, type);
        if (type == V4_UNREACHABLE && v.icmpCode == V4_FRAGMENTATION_NEEDED) {
            // RFC 1191 4: the low-order 16 bits of the word after the checksum; a router older than RFC 1191 leaves
            // them 0, and the sender then has only the quoted datagram's length to go by.
            v.icmpMtu = c.u16(o + 6);
        }
        int q = o + 8;
        if (!c.has(q, 20) || c.u8(q) >> 4 != 4) {
            quoteCut(v);
            return;
        }
        int ihl = (c.u8(q) & 0x0f) * 4;
        v.quotedVersion = 4;
        v.quotedSrcHi = 0;
        v.quotedSrcLo = Ipv4.MAPPED | (c.i32(q + 12) & 0xffffffffL);
        v.quotedDstHi = 0;
        v.quotedDstLo = Ipv4.MAPPED | (c.i32(q + 16) & 0xffffffffL);
        v.quotedProtocol = c.u8(q + 9);
        v.quotedLength = c.u16(q + 2);
        if (ihl < 20) {
            quoteCut(v);
            return;
        }
        quotedTransport(c, q + ihl, v);
    }

    static void decodeV6(Cursor c, int o, PacketView v) {
        if (!c.has(o, 8)) {
            Ipv4.flag(v, Weird.TRUNCATED_ICMP);
            return;
        }
        int type = c.u8(o);
        if (type != V6_UNREACHABLE && type != V6_PACKET_TOO_BIG && type != V6_TIME_EXCEEDED
                && type != V6_PARAMETER_PROBLEM) {
            return; // neighbour discovery, echo and the like answer no connection and quote nothing
        }
        error(c, o, v, type);
        if (type == V6_PACKET_TOO_BIG) {
            // RFC 4443 3.2: the MTU of the next-hop link, all 32 bits after the checksum.
            long mtu = c.i32(o + 4) & 0xffffffffL;
            v.icmpMtu = (int) Math.min(mtu, Integer.MAX_VALUE);
        }
        int q = o + 8;
        if (!c.has(q, 40) || c.u8(q) >> 4 != 6) {
            quoteCut(v);
            return;
        }
        v.quotedVersion = 6;
        v.quotedSrcHi = c.i64(q + 8);
        v.quotedSrcLo = c.i64(q + 16);
        v.quotedDstHi = c.i64(q + 24);
        v.quotedDstLo = c.i64(q + 32);
        v.quotedLength = c.u16(q + 4) + 40;
        int t = Ipv6.skipExtensions(c, q + 40, c.u8(q + 6));
        if (t < 0) {
            v.quotedProtocol = -1;
            quoteCut(v);
            return;
        }
        v.quotedProtocol = c.next;
        quotedTransport(c, t, v);
    }

    private static void error(Cursor c, int o, PacketView v, int type) {
        v.kind = PacketView.Kind.ICMP_ERROR;
        v.icmpType = type;
        v.icmpCode = c.u8(o + 1);
    }

    /** The quoted TCP segment's ports and sequence number, or the quoted UDP datagram's ports. */
    private static void quotedTransport(Cursor c, int t, PacketView v) {
        if (v.quotedProtocol != Ipv4.PROTO_TCP && v.quotedProtocol != Udp.PROTO_UDP) {
            return;
        }
        if (c.has(t, 4)) {
            v.quotedHasPorts = true;
            v.quotedSrcPort = c.u16(t);
            v.quotedDstPort = c.u16(t + 2);
        }
        if (v.quotedProtocol == Udp.PROTO_UDP) {
            if (!c.has(t, 4)) {
                quoteCut(v);
            }
            return;
        }
        if (c.has(t, 8)) {
            v.quotedHasSeq = true;
            v.quotedSeq = c.i32(t + 4);
        } else {
            quoteCut(v);
        }
    }

    /** The error is real, but the capture (or a stingy router) cut its quote short. */
    private static void quoteCut(PacketView v) {
        v.truncated = true;
        v.weird = Weird.TRUNCATED_ICMP_QUOTE;
    }
}
