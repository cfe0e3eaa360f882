package io.pcapdiag.capture;

/**
 * An input the user named: a file path or {@code -} for stdin. Frames point back to it so evidence
 * can say where a packet was seen.
 *
 * @param index position on the command line, 0-based
 * @param name what the user typed
 */
public record Capture(int index, String name) {
    @Override
    public String toString() {
        return name;
    }
}
