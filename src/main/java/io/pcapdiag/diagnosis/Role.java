package io.pcapdiag.diagnosis;

/** What an evidence packet is in a finding's story; the ids are what reports print. */
public enum Role {
    SYN("syn"),
    DNAT_COPY("dnat-copy"),
    SYN_ACK("syn-ack"),
    RST("rst"),
    ICMP("icmp"),
    CLIENT_RST("client-rst");

    private final String id;

    Role(String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }
}
