package io.pcapdiag.track;

/** How an attempt ended, decided from its answers in this order of precedence (docs/design.md). */
public enum Outcome {
    /** A SYN-ACK from the address:port the client dialed. */
    ANSWERED("answered"),
    /** Only SYN-ACKs from another address:port: a reply that skipped reverse NAT. */
    BYPASSED("bypassed"),
    /** A RST acknowledging the SYN. */
    REFUSED("refused"),
    /** An ICMP/ICMPv6 error quoting the SYN. */
    REJECTED("rejected"),
    /** Nothing, although the SYN was retransmitted or the capture went on for 3 s after it. */
    UNANSWERED("unanswered"),
    /** Nothing yet when the capture ended: too early to tell, never a finding. */
    PENDING("pending"),
    /** Pushed out of the full table before anything answered it: counted, never a finding. */
    EVICTED("evicted");

    private final String id;

    Outcome(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
