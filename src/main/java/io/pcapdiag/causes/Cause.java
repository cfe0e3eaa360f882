package io.pcapdiag.causes;

/** The cause ids of docs/design.md: a public contract, like the pattern ids. */
public enum Cause {
    ETP_LOCAL_NO_LOCAL_ENDPOINT("etp-local-no-local-endpoint", "externalTrafficPolicy: Local and no ready endpoint on this node"),
    SERVICE_NO_ENDPOINTS("service-no-endpoints", "the Service has no ready endpoint"),
    PORT_NOT_IN_SERVICE("port-not-in-service", "the port dialed is none of the Service's ports"),
    BRIDGE_NF_CALL_OFF("bridge-nf-call-off", "bridged traffic bypasses iptables (bridge-nf-call-iptables off)"),
    HAIRPIN_MODE_OFF("hairpin-mode-off", "hairpin mode is off on the pod's bridge port"),
    LB_VIP_BOUND_LOCALLY("lb-vip-bound-locally", "the load balancer's VIP is bound on the node (kube-ipvs0)"),
    NETWORK_POLICY("network-policy", "a NetworkPolicy isolates the target and admits no rule for the client"),
    CONNTRACK_FULL("conntrack-full", "the conntrack table is full"),
    CONNTRACK_INSERT_RACE("conntrack-insert-race", "conntrack insert race (SNAT port clash)"),
    IPVS_CONN_REUSE("ipvs-conn-reuse", "IPVS connection reuse drops the first SYN of a reused port"),
    RP_FILTER("rp-filter", "reverse-path filtering drops the SYN"),
    STALE_UDP_CONNTRACK("stale-udp-conntrack", "a stale UDP conntrack entry DNATs to a backend that is gone"),
    DNS_NDOTS("dns-ndots", "ndots:5 sends a name with fewer dots through the search list first"),
    DNS_UPSTREAM_FAILURE("dns-upstream-failure", "the DNS pod's own query upstream failed"),
    OVERLAY_MTU_MISMATCH("overlay-mtu-mismatch", "the pod's MTU plus the tunnel's overhead exceeds the underlay's MTU"),
    FRAG_NEEDED_BLOCKED("frag-needed-blocked", "the ICMP \"fragmentation needed\" never reached the sender"),
    CONNTRACK_INVALID_ACCEPTED("conntrack-invalid-accepted", "no rule drops what conntrack marks INVALID, so an un-NATed reply reached the client"),
    ENDPOINT_TERMINATED("endpoint-terminated", "the backend was terminating or no longer an endpoint of the Service");

    private final String id;
    private final String title;

    Cause(String id, String title) {
        this.id = id;
        this.title = title;
    }

    public String id() {
        return id;
    }

    public String title() {
        return title;
    }
}
