package io.pcapdiag.decode;

import io.pcapdiag.capture.Frame;

/**
 * The analysis needs SYNs, RSTs and ICMP errors; most of a node capture is mid-connection TCP segments.
 * Like the BPF filter of live capture, this recognises the common case (Ethernet, Linux cooked v2 or raw
 * IP; IPv4 without options or IPv6 without extension headers; TCP without SYN or RST; the same inside VXLAN) in a
 * handful of byte reads, so such segments are counted without a full decode. It only answers true when the full
 * {@link Decoder} would return a plain TCP segment without SYN/RST and without anomaly; anything unusual
 * (VLAN tags, IP options, fragments, TSO lengths, truncation) goes to the full decoder.
 */
public final class Prefilter {
    private static final int SYN_OR_RST = PacketView.SYN | PacketView.RST;

    private Prefilter() {
    }

    public static boolean plainSegment(Frame f) {
        return plainSegment(f.linkType, f.data, f.offset, f.capLen);
    }

    /** {@link #plainSegment(Frame)} for a frame of {@code n} captured bytes at {@code o} in {@code b}. */
    public static boolean plainSegment(int linkType, byte[] b, int o, int n) {
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
                return false;
            }
        }
        return plainIp(b, ip, n, type, true);
    }

    /**
     * An IPv4 or IPv6 packet at {@code ip} of which {@code n} bytes were captured. In the outer packet, a VXLAN
     * datagram is looked into as {@link Tunnels} decodes it: on an overlay's underlay every frame is one, and its inner
     * segment is as plain as any.
     */
    private static boolean plainIp(byte[] b, int ip, int n, int type, boolean outer) {
        if (type == LinkTypes.ETHERTYPE_IPV4) {
            // IHL 5, no fragment offset; TCP: total length holds 20 bytes of TCP, 16 of them captured.
            if (n < 36 || b[ip] != 0x45 || ((b[ip + 6] & 0x1f) | b[ip + 7]) != 0) {
                return false;
            }
            int total = (b[ip + 2] & 0xff) << 8 | (b[ip + 3] & 0xff);
            if (b[ip + 9] == 6) {
                return total >= 40 && segmentIsPlain(b, ip + 20, Math.min(n, total) - 20);
            }
            // The decoder bounds what follows by the total length (Ethernet pads short frames); 0 is TSO's.
            return outer && b[ip + 9] == Tunnels.PROTO_UDP && total >= 20 && vxlan(b, ip + 20, Math.min(n, total) - 20);
        }
        if (type == LinkTypes.ETHERTYPE_IPV6) {
            // No extension headers; TCP: payload length holds a TCP header.
            if (n < 56 || (b[ip] & 0xf0) != 0x60) {
                return false;
            }
            int payload = (b[ip + 4] & 0xff) << 8 | (b[ip + 5] & 0xff);
            if (b[ip + 6] == 6) {
                return payload >= 20 && segmentIsPlain(b, ip + 40, Math.min(n - 40, payload));
            }
            return outer && b[ip + 6] == Tunnels.PROTO_UDP && vxlan(b, ip + 40, Math.min(n - 40, payload));
        }
        return false;
    }

    /**
     * A UDP datagram at {@code udp} with {@code n} bytes of it there: VXLAN (its port, its I flag) carrying an Ethernet
     * frame without VLAN tags, whose IP packet is looked at as above.
     */
    private static boolean vxlan(byte[] b, int udp, int n) {
        if (n < 8 + 8 + 14) {
            return false;
        }
        int port = (b[udp + 2] & 0xff) << 8 | (b[udp + 3] & 0xff);
        if (port != Tunnels.VXLAN_PORT && port != Tunnels.VXLAN_LINUX_PORT || (b[udp + 8] & 0x08) == 0) {
            return false;
        }
        int eth = udp + 16;
        int type = (b[eth + 12] & 0xff) << 8 | (b[eth + 13] & 0xff);
        return plainIp(b, eth + 14, n - 30, type, false);
    }

    /** At least 16 bytes of TCP header present, a sane data offset, and neither SYN nor RST. */
    private static boolean segmentIsPlain(byte[] b, int tcp, int available) {
        return available >= 16 && (b[tcp + 12] & 0xf0) >= 0x50 && (b[tcp + 13] & SYN_OR_RST) == 0;
    }
}
