package io.pcapdiag.decode;

/** IPv6 (RFC 8200) and its extension header chain. */
final class Ipv6 {
    static final int PROTO_ICMPV6 = 58;
    private static final int HOP_BY_HOP = 0;
    private static final int ROUTING = 43;
    private static final int FRAGMENT = 44;
    private static final int AH = 51;
    private static final int DEST_OPTS = 60;
    /** Returned by {@link #skipExtensions} for a non-first fragment. */
    static final int LATER_FRAGMENT = -2;

    private Ipv6() {
    }

    static void decode(Cursor c, int off, PacketView v) {
        if (!c.has(off, 40)) {
            Ipv4.flag(v, Weird.TRUNCATED_IP);
            return;
        }
        if (c.u8(off) >> 4 != 6) {
            Ipv4.flag(v, Weird.BAD_IP_VERSION);
            return;
        }
        int payload = c.u16(off + 4);
        v.ipVersion = 6;
        v.ttl = c.u8(off + 7);
        v.srcHi = c.i64(off + 8);
        v.srcLo = c.i64(off + 16);
        v.dstHi = c.i64(off + 24);
        v.dstLo = c.i64(off + 32);
        if (payload != 0) { // 0: jumbogram or offload, trust the capture
            c.end = Math.min(c.end, off + 40 + payload);
        } else {
            payload = c.end - off - 40;
        }
        // Set before the walk, as Ipv4 does before its fragment check: later fragments and cut chains
        // return early, and the reused view must not keep the previous packet's length.
        v.ipPayloadLength = payload;
        int o = skipExtensions(c, off + 40, c.u8(off + 6));
        if (o == LATER_FRAGMENT) {
            return;
        }
        if (o < 0) {
            Ipv4.flag(v, Weird.TRUNCATED_IPV6_EXT);
            return;
        }
        v.ipPayloadLength = payload - (o - off - 40);
        if (c.next == Ipv4.PROTO_TCP) {
            Tcp.decode(c, o, v);
        } else if (c.next == PROTO_ICMPV6) {
            Icmp.decodeV6(c, o, v);
        } else if (c.next == Udp.PROTO_UDP) {
            Udp.decode(c, o, v);
        } else if (c.next == Tunnels.PROTO_IPIP || c.next == Tunnels.PROTO_IPV6) {
            Tunnels.ipInIp(c, o, c.next, v);
        }
    }

    /**
     * Walks hop-by-hop, routing, fragment, AH and destination options headers.
     *
     * @return the offset of the upper-layer header (its protocol in {@code c.next}), -1 when the chain
     *         is cut off, or {@link #LATER_FRAGMENT}
     */
    static int skipExtensions(Cursor c, int o, int next) {
        while (next == HOP_BY_HOP || next == ROUTING || next == DEST_OPTS || next == FRAGMENT || next == AH) {
            if (!c.has(o, 8)) {
                return -1;
            }
            int len;
            if (next == FRAGMENT) {
                int fragment = c.u16(o + 2);
                if ((fragment & 0xfff8) != 0) {
                    return LATER_FRAGMENT;
                }
                c.firstFragment |= (fragment & 1) != 0;
                len = 8;
            } else if (next == AH) {
                len = (c.u8(o + 1) + 2) * 4; // RFC 4302: length in 4-octet units, minus 2
            } else {
                len = (c.u8(o + 1) + 1) * 8;
            }
            if (!c.has(o, len)) {
                return -1; // the header's own length runs past the captured bytes
            }
            next = c.u8(o);
            o += len;
        }
        c.next = next;
        return o;
    }
}
