package io.pcapdiag.cluster;

/** A snapshot that cannot be read at all: its one line names the file and where. */
public final class ClusterException extends Exception {
    private static final long serialVersionUID = 1L;

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
