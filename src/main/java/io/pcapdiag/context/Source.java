package io.pcapdiag.context;

/** Where a fact comes from: every fact pcapdiag states says which. */
public enum Source {
    /** Seen in the packets of this run (a DNAT'ed copy, an answer, a local reject). */
    CAPTURE("capture"),
    /** Given on the command line ({@code --lb-ip}). */
    FLAG("command line"),
    /** Read from the cluster: a snapshot ({@code --cluster}) or the API server. */
    CLUSTER("cluster"),
    /** Read on the node ({@code pcapdiag node-facts}). */
    NODE("node");

    private final String id;

    Source(String id) {
        this.id = id;
    }

    /** How reports name it. */
    public String id() {
        return id;
    }
}
