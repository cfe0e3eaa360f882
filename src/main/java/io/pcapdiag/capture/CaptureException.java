package io.pcapdiag.capture;

/**
 * Bad input: names the capture and the byte offset where reading went wrong, and what was expected.
 * The message is one line meant for users; the analysis of other inputs goes on.
 */
public class CaptureException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String capture;
    private final long offset;

    public CaptureException(String capture, long offset, String message) {
        super(message);
        this.capture = capture;
        this.offset = offset;
    }

    public CaptureException(String capture, long offset, String message, Throwable cause) {
        super(message, cause);
        this.capture = capture;
        this.offset = offset;
    }

    public String capture() {
        return capture;
    }

    /** Byte offset in the file, or -1 where the failure has none (e.g. the file cannot be opened). */
    public long offset() {
        return offset;
    }

    /** The one line shown to users: {@code FILE: offset N: message}. */
    public String oneLine() {
        return offset >= 0 ? capture + ": offset " + offset + ": " + getMessage() : capture + ": " + getMessage();
    }
}
