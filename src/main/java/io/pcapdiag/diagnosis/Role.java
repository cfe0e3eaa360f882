package io.pcapdiag.diagnosis;

/** What an evidence packet is in a finding's story; the ids are what reports print. */
public enum Role {
    SYN("syn"),
    DNAT_COPY("dnat-copy"),
    SYN_ACK("syn-ack"),
    RST("rst"),
    ICMP("icmp"),
    CLIENT_RST("client-rst"),
    /** A UDP exchange: the DNS query (or, no DNS, the datagram) the client sent, an answer to its port. */
    QUERY("query"),
    DATAGRAM("datagram"),
    RESEND("resend"),
    /** The client's ICMP port unreachable refusing an answer no socket of it expects (a bypassing DNS answer). */
    CLIENT_ICMP("client-icmp"),
    ANSWER("answer"),
    /**
     * After the handshake: a data segment that went unacknowledged (its retransmissions are {@link #RESEND}s), and a
     * segment that reached the client from another address than it dialed (it bypassed reverse NAT).
     */
    SEGMENT("segment"),
    BYPASS("bypass");

    private final String id;

    Role(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
