package io.pcapdiag.capture;

/**
 * An input the user named: a file path or {@code -} for stdin (live: an interface). Frames point back to
 * it so evidence can say where a packet was seen.
 *
 * @param index position on the command line, 0-based
 * @param name  what the user typed
 * @param label where it was recorded, as the user said ({@code --label FILE=NODE[/INTERFACE]}), or null
 */
public record Capture(int index, String name, String label) {
    public Capture(int index, String name) {
        this(index, name, null);
    }

    /** The node part of the label ({@code node-a} of {@code node-a/eth0}), or null. */
    public String node() {
        if (label == null) {
            return null;
        }
        int slash = label.indexOf('/');
        return slash < 0 ? label : label.substring(0, slash);
    }

    /** The interface part of the label ({@code eth0} of {@code node-a/eth0}), or null. */
    public String labelledInterface() {
        if (label == null) {
            return null;
        }
        int slash = label.indexOf('/');
        return slash < 0 ? null : label.substring(slash + 1);
    }

    @Override
    public String toString() {
        return name;
    }
}
