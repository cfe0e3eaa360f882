package io.pcapdiag.decode;

import io.pcapdiag.capture.Frame;

/**
 * The analysis needs SYNs, RSTs and ICMP errors; most of a node capture is mid-connection TCP segments, and much of the
 * rest UDP (DNS, metrics). Like the BPF filter of live capture, this recognises the common cases (Ethernet, Linux
 * cooked v2 or raw IP; IPv4 without options or IPv6 without extension headers; TCP without SYN or RST, the same inside
 * VXLAN, Geneve or IP in IP; UDP to a port that is no overlay's) in a handful of byte reads, so such frames are counted
 * without a full decode. It answers {@link #PLAIN_SEGMENT} only when the full {@link Decoder} would return a plain TCP
 * segment without SYN/RST and without anomaly, {@link #PLAIN_OTHER} only when it would return a packet of no interest
 * ({@link PacketView.Kind#OTHER}) without anomaly; anything unusual (VLAN tags, IP options, fragments, TSO lengths,
 * truncation, a tunnel header or nesting out of the ordinary) is {@link #DECODE}: the full decoder's.
 */
public final class Prefilter {
    /** The full decoder must look at the frame. */
    public static final int DECODE = 0;
    /** A TCP segment without SYN or RST, well formed: counted as TCP. */
    public static final int PLAIN_SEGMENT = 1;
    /** A UDP datagram to a port that is no overlay's, well formed: counted as other. */
    public static final int PLAIN_OTHER = 2;

    private static final int SYN_OR_RST = PacketView.SYN | PacketView.RST;

    private Prefilter() {
    }

    /** What {@link #classify(int, byte[], int, int)} makes of {@code f}. */
    public static int classify(Frame f) {
        return classify(f.linkType, f.data, f.offset, f.capLen);
    }

    /** {@link #DECODE}, {@link #PLAIN_SEGMENT} or {@link #PLAIN_OTHER} for a frame of {@code n} captured bytes at {@code o}. */
    public static int classify(int linkType, byte[] b, int o, int n) {
        // A node's most common frame first, all in this method: untagged Ethernet, IPv4 without options or fragments,
        // TCP (the same tests as plainIp and segment). This is asked of every frame, and C1 inlines none of the general
        // path's calls (each is over its 35-byte limit).
        if (linkType == LinkTypes.ETHERNET && n >= 14 + 36 && b[o + 12] == 0x08 && b[o + 13] == 0 && b[o + 14] == 0x45
                && b[o + 23] == Ipv4.PROTO_TCP && ((b[o + 20] & 0x1f) | b[o + 21]) == 0) {
            int total = (b[o + 16] & 0xff) << 8 | (b[o + 17] & 0xff);
            return total >= 40 && Math.min(n - 14, total) - 20 >= 16 && (b[o + 46] & 0xf0) >= 0x50
                    && (b[o + 47] & SYN_OR_RST) == 0 ? PLAIN_SEGMENT : DECODE;
        }
        int ip;
        int type;
        switch (linkType) {
            case LinkTypes.ETHERNET -> {
                ip = o + 14;
                n -= 14;
                type = n < 0 ? -1 : (b[o + 12] & 0xff) << 8 | (b[o + 13] & 0xff);
            }
            case LinkTypes.LINUX_SLL2 -> {
                ip = o + 20;
                n -= 20;
                type = n < 0 ? -1 : (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
            }
            case LinkTypes.RAW -> {
                ip = o;
                type = n < 1 ? -1 : (b[o] & 0xf0) == 0x40 ? LinkTypes.ETHERTYPE_IPV4 : LinkTypes.ETHERTYPE_IPV6;
            }
            default -> {
                return DECODE;
            }
        }
        return plainIp(b, ip, n, type, true);
    }

    /**
     * An IPv4 or IPv6 packet at {@code ip} of which {@code n} bytes were captured. In the outer packet, a tunnel is
     * looked into as {@link Tunnels} decodes it (on an overlay's underlay every frame is in one, and its inner segment
     * is as plain as any), and a datagram to a port that is no overlay's is a plain other packet.
     */
    private static int plainIp(byte[] b, int ip, int n, int type, boolean outer) {
        if (type == LinkTypes.ETHERTYPE_IPV4) {
            // IHL 5, no fragment offset; TCP: total length holds 20 bytes of TCP, 16 of them captured (segment()
            // checks those); UDP: its header captured (udp() checks that).
            if (n < 20 || b[ip] != 0x45 || ((b[ip + 6] & 0x1f) | b[ip + 7]) != 0) {
                return DECODE;
            }
            int total = (b[ip + 2] & 0xff) << 8 | (b[ip + 3] & 0xff);
            if (b[ip + 9] == Ipv4.PROTO_TCP) {
                return total >= 40 ? segment(b, ip + 20, Math.min(n, total) - 20) : DECODE;
            }
            // The decoder bounds what follows by the total length (Ethernet pads short frames); 0 is TSO's, and
            // leaves less than nothing here: the decoder's.
            return outer ? payload(b, ip + 20, Math.min(n, total) - 20, b[ip + 9]) : DECODE;
        }
        if (type == LinkTypes.ETHERTYPE_IPV6) {
            // No extension headers; TCP: payload length holds a TCP header.
            if (n < 40 || (b[ip] & 0xf0) != 0x60) {
                return DECODE;
            }
            int payload = (b[ip + 4] & 0xff) << 8 | (b[ip + 5] & 0xff);
            if (b[ip + 6] == Ipv4.PROTO_TCP) {
                return payload >= 20 ? segment(b, ip + 40, Math.min(n - 40, payload)) : DECODE;
            }
            // A payload length of 0 (a jumbogram's or offload's) leaves nothing here: the decoder's.
            return outer ? payload(b, ip + 40, Math.min(n - 40, payload), b[ip + 6]) : DECODE;
        }
        return DECODE;
    }

    /**
     * What the outer packet carries at {@code o}, {@code n} bytes of it there, by its IP protocol: a UDP datagram, or
     * an IP packet in IP (Calico's IPIP mode, protocol 4; IPv6 in IP, 41). Only the outer packet's: a tunnel inside a
     * tunnel is the decoder's, which follows nesting so deep.
     */
    private static int payload(byte[] b, int o, int n, int protocol) {
        if (protocol == Tunnels.PROTO_UDP) {
            return udp(b, o, n);
        }
        if (protocol == Tunnels.PROTO_IPIP) {
            return plainIp(b, o, n, LinkTypes.ETHERTYPE_IPV4, false);
        }
        return protocol == Tunnels.PROTO_IPV6 ? plainIp(b, o, n, LinkTypes.ETHERTYPE_IPV6, false) : DECODE;
    }

    /**
     * A UDP datagram at {@code udp} with {@code n} bytes of it there (8 or more): VXLAN (its port, its I flag) or Geneve
     * (its port, version 0, its options skipped by their length) carrying an Ethernet frame without VLAN tags or, in
     * Geneve, an IP packet, which is looked at as above; to any other port, a plain other packet ({@link Tunnels#udp}
     * decodes no further).
     */
    private static int udp(byte[] b, int udp, int n) {
        if (n < 8) {
            return DECODE; // a cut header (the decoder's OTHER too): no read past the captured bytes
        }
        int port = (b[udp + 2] & 0xff) << 8 | (b[udp + 3] & 0xff);
        int o = udp + 8;
        n -= 8;
        if (port == Tunnels.VXLAN_PORT || port == Tunnels.VXLAN_LINUX_PORT) {
            return n >= 8 && (b[o] & 0x08) != 0 ? bridged(b, o + 8, n - 8) : DECODE;
        }
        if (port != Tunnels.GENEVE_PORT) {
            return PLAIN_OTHER;
        }
        if (n < 8 || (b[o] & 0xc0) != 0) {
            return DECODE;
        }
        int header = 8 + (b[o] & 0x3f) * 4;
        int protocol = (b[o + 2] & 0xff) << 8 | (b[o + 3] & 0xff);
        if (protocol == Tunnels.ETHERTYPE_BRIDGED) {
            return bridged(b, o + header, n - header);
        }
        // Options cut by the capture leave less than an IP header here: the decoder's.
        return plainIp(b, o + header, n - header, protocol, false);
    }

    /** An Ethernet frame inside a tunnel, {@code n} bytes of it there: without VLAN tags, its IP packet as above. */
    private static int bridged(byte[] b, int eth, int n) {
        if (n < 14) {
            return DECODE;
        }
        int type = (b[eth + 12] & 0xff) << 8 | (b[eth + 13] & 0xff);
        return plainIp(b, eth + 14, n - 14, type, false);
    }

    /** At least 16 bytes of TCP header present, a sane data offset, and neither SYN nor RST. */
    private static int segment(byte[] b, int tcp, int available) {
        return available >= 16 && (b[tcp + 12] & 0xf0) >= 0x50 && (b[tcp + 13] & SYN_OR_RST) == 0 ? PLAIN_SEGMENT : DECODE;
    }
}
