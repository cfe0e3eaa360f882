package io.pcapdiag.decode;

/**
 * UDP (RFC 768): a datagram to an overlay's port is a tunnel ({@link Tunnels}), one to or from the DNS port carries a
 * DNS message ({@link Dns}); any other is a UDP datagram with its ports.
 */
final class Udp {
    static final int PROTO_UDP = 17;

    private Udp() {
    }

    static void decode(Cursor c, int o, PacketView v) {
        if (!c.has(o, 8)) {
            return; // the UDP header itself is cut: an IP packet, no more
        }
        v.kind = PacketView.Kind.UDP;
        int src = c.u16(o);
        int dst = c.u16(o + 2);
        v.srcPort = src;
        v.dstPort = dst;
        if (dst == Tunnels.VXLAN_PORT || dst == Tunnels.VXLAN_LINUX_PORT) {
            Tunnels.vxlan(c, o + 8, dst, v);
        } else if (dst == Tunnels.GENEVE_PORT) {
            Tunnels.geneve(c, o + 8, dst, v);
        } else if (c.dnsPort(src) || c.dnsPort(dst)) {
            // The message ends where the datagram's length says; a length under the header's own is no length.
            int length = c.u16(o + 4);
            Dns.decode(c, o + 8, length < 8 ? c.end : o + length, v);
        }
    }
}
