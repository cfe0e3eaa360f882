package io.pcapdiag.node;

/**
 * A node-facts document that cannot be read. The message is one line for users: the file, then the JSON path
 * ({@code $.interfaces[3].ifindex}) or byte offset at fault, then what was expected.
 */
public class NodeFactsException extends Exception {
    private static final long serialVersionUID = 1L;

    public NodeFactsException(String message) {
        super(message);
    }

    public NodeFactsException(String message, Throwable cause) {
        super(message, cause);
    }
}
