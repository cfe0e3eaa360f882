package io.pcapdiag.decode;

/**
 * Overlay encapsulations, decoded down to the packet inside, as Wireshark and Zeek do: VXLAN (RFC 7348, UDP 4789
 * and Linux's and Flannel's 8472), Geneve (RFC 8926, UDP 6081, options skipped by their length) and IP in IP
 * (protocol 4 and 41, either family outside). The view then describes the inner packet, and the outermost tunnel's
 * endpoints and VNI say where it was seen. A broken tunnel header never hides the outer packet: the view goes back
 * to the outer UDP or IP packet, with the anomaly counted; nesting is followed {@link #MAX_DEPTH} deep.
 */
final class Tunnels {
    static final int PROTO_IPIP = 4;
    static final int PROTO_IPV6 = 41;
    static final int VXLAN_PORT = 4789;
    static final int VXLAN_LINUX_PORT = 8472;
    static final int GENEVE_PORT = 6081;
    static final int MAX_DEPTH = 3;
    /** The protocol type of an Ethernet frame inside a tunnel (Transparent Ethernet Bridging). */
    static final int ETHERTYPE_BRIDGED = 0x6558;

    private Tunnels() {
    }

    static void vxlan(Cursor c, int o, int port, PacketView v) {
        if (!c.has(o, 8)) {
            outerOnly(v, Weird.TRUNCATED_TUNNEL);
            return;
        }
        if ((c.u8(o) & 0x08) == 0) {
            outerOnly(v, Weird.BAD_TUNNEL_HEADER); // no valid VNI: not a VXLAN header
            return;
        }
        int vni = (c.u16(o + 4) << 8) | c.u8(o + 6);
        inner(c, o + 8, ETHERTYPE_BRIDGED, PacketView.TUNNEL_VXLAN, vni, port, v);
    }

    static void geneve(Cursor c, int o, int port, PacketView v) {
        if (!c.has(o, 8)) {
            outerOnly(v, Weird.TRUNCATED_TUNNEL);
            return;
        }
        int first = c.u8(o);
        if (first >> 6 != 0) {
            outerOnly(v, Weird.BAD_TUNNEL_HEADER); // only version 0 exists
            return;
        }
        int options = (first & 0x3f) * 4;
        if (!c.has(o, 8 + options)) {
            outerOnly(v, Weird.TRUNCATED_TUNNEL);
            return;
        }
        int vni = (c.u16(o + 4) << 8) | c.u8(o + 6);
        inner(c, o + 8 + options, c.u16(o + 2), PacketView.TUNNEL_GENEVE, vni, port, v);
    }

    /** IP in IP: an IPv4 (protocol 4) or IPv6 (41) packet right after the outer IP header. */
    static void ipInIp(Cursor c, int o, int proto, PacketView v) {
        inner(c, o, proto == PROTO_IPIP ? LinkTypes.ETHERTYPE_IPV4 : LinkTypes.ETHERTYPE_IPV6, PacketView.TUNNEL_IP_IN_IP,
                -1, -1, v);
    }

    /**
     * Decodes what a tunnel carries at {@code o}: an Ethernet frame ({@code type} 0x6558) or an IP packet. The outer
     * addresses are kept first: if what is inside is no IP packet, or a broken one, the view is the outer packet again.
     */
    private static void inner(Cursor c, int o, int type, int tunnel, int vni, int port, PacketView v) {
        if (v.tunnelDepth >= MAX_DEPTH) {
            // Undecodable at this depth: each enclosing tunnel level then restores its outer packet, down to the
            // outermost one, which the view shows with this anomaly counted.
            Ipv4.flag(v, Weird.TUNNEL_TOO_DEEP);
            return;
        }
        PacketView.Kind kind = v.kind;
        int version = v.ipVersion;
        long srcHi = v.srcHi;
        long srcLo = v.srcLo;
        long dstHi = v.dstHi;
        long dstLo = v.dstLo;
        int ttl = v.ttl;
        int length = v.ipPayloadLength;
        boolean outermost = v.tunnelDepth == 0;
        if (type == ETHERTYPE_BRIDGED) {
            if (!c.has(o, 14)) {
                outerOnly(v, Weird.TRUNCATED_TUNNEL);
                return;
            }
            type = c.u16(o + 12);
            o += 14;
            while (type == 0x8100 || type == 0x88a8 || type == 0x9100) {
                if (!c.has(o, 4)) {
                    outerOnly(v, Weird.TRUNCATED_TUNNEL);
                    return;
                }
                type = c.u16(o + 2);
                o += 4;
            }
        }
        if (type != LinkTypes.ETHERTYPE_IPV4 && type != LinkTypes.ETHERTYPE_IPV6) {
            return; // ARP, or anything else inside: the outer packet is what the view shows
        }
        v.tunnelDepth++;
        if (outermost) {
            v.tunnelType = tunnel;
            v.tunnelSrcHi = srcHi;
            v.tunnelSrcLo = srcLo;
            v.tunnelDstHi = dstHi;
            v.tunnelDstLo = dstLo;
            v.tunnelVni = vni;
            v.tunnelPort = port;
        }
        if (type == LinkTypes.ETHERTYPE_IPV4) {
            Ipv4.decode(c, o, v);
        } else {
            Ipv6.decode(c, o, v);
        }
        if (v.kind == PacketView.Kind.UNDECODABLE) {
            // The inner packet is broken: counted under its own anomaly, and the view is the outer packet again (an
            // enclosing tunnel level does the same, so the outermost packet is what stands).
            if (outermost) {
                v.kind = kind;
            }
            v.ipVersion = version;
            v.srcHi = srcHi;
            v.srcLo = srcLo;
            v.dstHi = dstHi;
            v.dstLo = dstLo;
            v.ttl = ttl;
            v.ipPayloadLength = length;
            if (outermost) {
                v.tunnelType = PacketView.TUNNEL_NONE;
            }
        }
    }

    /** The tunnel header is unusable: the outer packet stands, with the anomaly counted. */
    private static void outerOnly(PacketView v, String weird) {
        if (v.weird == null) {
            v.weird = weird;
            v.truncated = Weird.isTruncation(weird);
        }
    }
}
