package io.pcapdiag.context;

/**
 * The overlay tunnel a node sends a pod's packets to some destination through, as its node facts show it: the tunnel
 * device (flannel.1, vxlan.calico, cilium_vxlan, tunl0...), its MTU, the bytes its encapsulation adds and the underlay
 * device the encapsulated packets leave by, with its MTU. Or that no tunnel carries them: {@link #device} null.
 *
 * @param device      the tunnel device, or null when the packets leave the node unencapsulated (no tunnel device, or
 *                    the route to the destination leaves by a bridge of the node's own pods)
 * @param kind        its link kind (vxlan, geneve, ipip...), or null
 * @param mtu         its MTU, or null when unknown
 * @param overhead    the bytes its encapsulation adds to a packet (outer headers; VXLAN: 50 over IPv4, 70 over IPv6)
 * @param exact       the overhead is exact; false when it is the least the encapsulation adds (Geneve options, GRE keys)
 * @param underlay    the device the encapsulated packets leave by, or null when unknown
 * @param underlayMtu its MTU, or null when unknown
 * @param routed      the route to the destination names the tunnel device; false when it is only the node's one tunnel
 *                    device (the route does not say: a BPF datapath, or routes unknown)
 * @param fact        the sentence stating all of it, with its source
 */
public record TunnelFacts(String device, String kind, Integer mtu, int overhead, boolean exact, String underlay,
                          Integer underlayMtu, boolean routed, Fact fact) {
    /** No tunnel carries the packets: {@code fact} says why. */
    static TunnelFacts none(Fact fact) {
        return new TunnelFacts(null, null, null, 0, true, null, null, true, fact);
    }
}
