package io.pcapdiag.rules;

/**
 * The finding ids of docs/design.md: a public contract, never renamed. Declared in the order reports list
 * patterns of equal severity and attempts.
 */
public enum Pattern {
    VIP_LOCAL_REJECT("vip-local-reject", Severity.ERROR, "the node rejected a connection to a VIP it holds itself"),
    NAT_BYPASS_REPLY("nat-bypass-reply", Severity.ERROR, "the reply came from the backend, not from the Service address that was dialed"),
    HAIRPIN_SELF("hairpin-self", Severity.ERROR, "a backend of a Service got no answer when it dialed that Service itself"),
    LB_PROBE_DROPPED("lb-probe-dropped", Severity.ERROR, "load-balancer probes sourced from a VIP get no reply"),
    PMTU_BLACKHOLE("pmtu-blackhole", Severity.ERROR, "full-size segments of a connection were never delivered: an MTU black hole"),
    RESET_AFTER_REPLY("reset-after-reply", Severity.ERROR, "a reply skipped reverse NAT mid-connection and the client reset it"),
    POLICY_REJECT("policy-reject", Severity.WARNING, "rejected as administratively prohibited: a policy or firewall"),
    CONNECTION_REFUSED("connection-refused", Severity.WARNING, "connection refused (RST)"),
    ICMP_UNREACHABLE("icmp-unreachable", Severity.WARNING, "rejected with an ICMP error on the path"),
    RESET_BY_GONE_ENDPOINT("reset-by-gone-endpoint", Severity.WARNING, "a connection through a Service ended when its backend went away"),
    DELAYED_CONNECT("delayed-connect", Severity.WARNING, "connected only after the SYN was retransmitted"),
    NO_RESPONSE("no-response", Severity.WARNING, "no response to the SYN"),
    DNS_RACE_LOST("dns-race-lost", Severity.WARNING, "a DNS query sent beside another from one socket was lost and asked again"),
    DNS_NO_RESPONSE("dns-no-response", Severity.WARNING, "no answer to a DNS query"),
    DNS_ERROR("dns-error", Severity.WARNING, "the DNS server failed or refused the query"),
    UDP_UNREACHABLE("udp-unreachable", Severity.WARNING, "a UDP datagram was rejected with an ICMP error"),
    DNS_SEARCH_EXPANSION("dns-search-expansion", Severity.INFO, "the name resolved only after its search-list expansions failed");

    private final String id;
    private final Severity severity;
    private final String title;

    Pattern(String id, Severity severity, String title) {
        this.id = id;
        this.severity = severity;
        this.title = title;
    }

    public String id() {
        return id;
    }

    public Severity severity() {
        return severity;
    }

    public String title() {
        return title;
    }

    /** A pattern about a connection after its handshake (docs/design.md, "Established connections"). */
    public boolean connection() {
        return this == PMTU_BLACKHOLE || this == RESET_AFTER_REPLY || this == RESET_BY_GONE_ENDPOINT;
    }

    /** A pattern about DNS queries: its findings carry the query and its rcode. */
    public boolean dns() {
        return this == DNS_RACE_LOST || this == DNS_NO_RESPONSE || this == DNS_ERROR || this == DNS_SEARCH_EXPANSION;
    }
}
