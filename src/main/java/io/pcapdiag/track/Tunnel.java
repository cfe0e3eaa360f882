package io.pcapdiag.track;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;

/**
 * The tunnel a packet was seen inside: its kind, its outer endpoints (the nodes' tunnel addresses) and its VNI.
 * Kept only for tunneled packets: a sighting without one holds null.
 */
public record Tunnel(int type, long srcHi, long srcLo, long dstHi, long dstLo, int vni, int port) {
    /** The outermost tunnel of a decoded packet, or null when it came in none. */
    static Tunnel of(PacketView v) {
        if (v.tunnelType == PacketView.TUNNEL_NONE) {
            return null;
        }
        return new Tunnel(v.tunnelType, v.tunnelSrcHi, v.tunnelSrcLo, v.tunnelDstHi, v.tunnelDstLo, v.tunnelVni,
                v.tunnelPort);
    }

    public String kind() {
        return switch (type) {
            case PacketView.TUNNEL_VXLAN -> "VXLAN";
            case PacketView.TUNNEL_GENEVE -> "Geneve";
            case PacketView.TUNNEL_IP_IN_IP -> "IP in IP";
            default -> "tunnel " + type;
        };
    }

    public Endpoint source() {
        return Endpoint.address(srcHi, srcLo);
    }

    public Endpoint destination() {
        return Endpoint.address(dstHi, dstLo);
    }

    /**
     * What Wireshark needs told to see inside, as tshark's {@code -d} takes it ({@code udp.port==8472,vxlan}): VXLAN
     * on Linux's and Flannel's port 8472 (it decodes 4789, Geneve's 6081 and IP in IP by itself); else null.
     */
    public String wiresharkDecodeAs() {
        return type == PacketView.TUNNEL_VXLAN && port != 4789 ? "udp.port==" + port + ",vxlan" : null;
    }

    /** As a path shows it: {@code VXLAN 198.51.100.2 > 198.51.100.3 vni 1}. */
    @Override
    public String toString() {
        return kind() + " " + source() + " > " + destination() + (vni >= 0 ? " vni " + vni : "");
    }
}
