package io.pcapdiag.decode;

/** IPv4 (RFC 791): options skipped by IHL, non-first fragments carry no transport header. */
final class Ipv4 {
    static final int PROTO_ICMP = 1;
    static final int PROTO_TCP = 6;
    /** The IPv4-mapped prefix (::ffff:0:0/96) as the low word's upper half. */
    static final long MAPPED = 0xffffL << 32;

    private Ipv4() {
    }

    static void decode(Cursor c, int off, PacketView v) {
        if (!c.has(off, 20)) {
            flag(v, Weird.TRUNCATED_IP);
            return;
        }
        int vihl = c.u8(off);
        if (vihl >> 4 != 4) {
            flag(v, Weird.BAD_IP_VERSION);
            return;
        }
        int ihl = (vihl & 0x0f) * 4;
        if (ihl < 20) {
            flag(v, Weird.BAD_IP_HEADER_LEN);
            return;
        }
        if (!c.has(off, ihl)) {
            flag(v, Weird.TRUNCATED_IP);
            return;
        }
        int total = c.u16(off + 2);
        if (total == 0) {
            // TCP segmentation offload: the stack hands the NIC a super-packet with length 0; trust the capture.
            total = c.end - off;
        } else if (total < ihl) {
            flag(v, Weird.BAD_IP_TOTAL_LEN);
            return;
        }
        v.ipVersion = 4;
        v.srcHi = 0;
        v.srcLo = MAPPED | (c.i32(off + 12) & 0xffffffffL);
        v.dstHi = 0;
        v.dstLo = MAPPED | (c.i32(off + 16) & 0xffffffffL);
        v.ttl = c.u8(off + 8);
        v.ipPayloadLength = total - ihl;
        // Ethernet pads short frames to 60 bytes: bytes past the IP total length are not IP.
        c.end = Math.min(c.end, off + total);
        int fragment = c.u16(off + 6);
        if ((fragment & 0x1fff) != 0) {
            return; // a later fragment: no TCP or ICMP header here
        }
        c.firstFragment |= (fragment & 0x2000) != 0;
        int proto = c.u8(off + 9);
        if (proto == PROTO_TCP) {
            Tcp.decode(c, off + ihl, v);
        } else if (proto == PROTO_ICMP) {
            Icmp.decodeV4(c, off + ihl, v);
        } else if (proto == Udp.PROTO_UDP) {
            Udp.decode(c, off + ihl, v);
        } else if (proto == Tunnels.PROTO_IPIP || proto == Tunnels.PROTO_IPV6) {
            Tunnels.ipInIp(c, off + ihl, proto, v);
        }
    }

    static void flag(PacketView v, String weird) {
        v.kind = PacketView.Kind.UNDECODABLE;
        v.weird = weird;
        v.truncated = Weird.isTruncation(weird);
    }
}
