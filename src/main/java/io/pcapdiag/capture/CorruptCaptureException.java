package io.pcapdiag.capture;

/** The file's structure is wrong at a given offset: bad magic, impossible lengths, a cut-off record. */
public final class CorruptCaptureException extends CaptureException {
    private static final long serialVersionUID = 1L;

    public CorruptCaptureException(String capture, long offset, String message) {
        super(capture, offset, message);
    }
}
