package io.pcapdiag.node;

import java.util.List;

/**
 * One network interface of the node, as sysfs and {@code ip -d -j addr show} describe it.
 *
 * @param kind       the rtnetlink link kind ({@code veth}, {@code bridge}, {@code vxlan}...), {@code loopback}, or
 *                   {@code device} for a NIC driver that registers no link kind
 * @param operstate  RFC 2863 state as the kernel words it ({@code up}, {@code down}, {@code unknown} for lo...)
 * @param adminUp    IFF_UP: {@code ip link set X up}; a kube-ipvs0 is down and still holds its addresses
 * @param iflink     the ifindex of the link below: for a veth its peer (in the peer's namespace), else itself or
 *                   the lower device
 * @param master     the interface this one is enslaved to (its bridge), or null
 * @param bridgePort for a bridge port, its port number and hairpin mode; null otherwise
 * @param bridge     for a bridge, its netfilter options and forwarding database; null otherwise
 * @param vxlan      for a VXLAN device, its VNI, UDP port and local address; null otherwise
 */
public record NodeInterface(int ifindex, String name, OrUnknown<String> kind, OrUnknown<String> operstate, OrUnknown<Boolean> adminUp,
                            OrUnknown<String> mac, OrUnknown<Integer> mtu, OrUnknown<Integer> iflink, String master,
                            OrUnknown<List<InterfaceAddress>> addresses, BridgePort bridgePort, Bridge bridge, OrUnknown<Vxlan> vxlan) {

    /**
     * A bridge port's settings (/sys/class/net/PORT/brport). Hairpin mode lets a frame leave by the port it came
     * in on, which a pod reaching itself through its own Service needs.
     */
    public record BridgePort(OrUnknown<Integer> portNo, OrUnknown<Integer> hairpinMode) {
    }

    /**
     * A bridge's own options (/sys/class/net/BR/bridge) and forwarding database (/sys/class/net/BR/brforward).
     * The per-bridge nf_call_* options pass this bridge's traffic to iptables even when the global
     * net.bridge.bridge-nf-call-* sysctl is 0 (br_netfilter_hooks.c tests either).
     */
    public record Bridge(OrUnknown<Integer> nfCallIptables, OrUnknown<Integer> nfCallIp6tables, OrUnknown<Integer> nfCallArptables,
                         OrUnknown<List<FdbEntry>> fdb) {
    }

    /**
     * A VXLAN device's parameters. A field the kernel does not report is null: no VNI for an external
     * (collect-metadata) device such as Cilium's, no local address unless one was set.
     */
    public record Vxlan(Long vni, Integer port, String local, String link) {
    }
}
