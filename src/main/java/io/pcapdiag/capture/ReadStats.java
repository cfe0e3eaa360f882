package io.pcapdiag.capture;

/** What a source read and what it had to skip; nothing is dropped without being counted here. */
public final class ReadStats {
    /** Frames delivered. */
    public long frames;
    /** Bytes of the file consumed. */
    public long bytes;
    /** Records that were present but could not be delivered (corrupt header, cut-off data, unknown interface). */
    public long skippedRecords;
    /** Bytes passed over while resynchronising after a corrupt record header. */
    public long skippedBytes;
    /** Size of the input when known (regular files), else -1. */
    public long sizeHint = -1;
}
