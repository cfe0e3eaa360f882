package io.pcapdiag.capture;

/**
 * One captured frame, as a source delivers it. Sources reuse a single instance per capture: the
 * bytes are valid until that source's next {@code next()} call.
 */
public final class Frame {
    /** Capture timestamp, nanoseconds since the epoch (UTC). */
    public long nanos;
    /** LINKTYPE_* value of the interface the frame was captured on. */
    public int linkType;
    public byte[] data;
    public int offset;
    /** Bytes captured (may be less than {@link #origLen}, e.g. with a short snaplen). */
    public int capLen;
    public int origLen;
    /** 1-based frame number within its capture file, as tcpdump and Wireshark count. */
    public long number;
    /** Byte offset of the frame's record header in the file, for error messages. */
    public long fileOffset;
    /** Index of the capture (input) the frame came from, see {@link Capture#index()}. */
    public Capture capture;
    /** Interface name when the format carries it (pcapng if_name), else null. */
    public String interfaceName;
}
