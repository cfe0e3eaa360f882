package io.pcapdiag.capture;

/**
 * A test a source applies to each frame before handing it out: the frames it takes are counted by the
 * filter and passed over, so the caller sees only the others. The source does not look into the bytes
 * itself; the filter does. On a busy node most frames are mid-connection segments that the analysis
 * only counts, and a source can test them in its own read loop, without making a frame of each.
 */
public interface FrameFilter {
    /**
     * True when the filter took the frame: it counted it, and the source goes on to the next one. The
     * arguments are the frame's; {@code data} is valid only during the call.
     */
    boolean take(Capture capture, long nanos, int linkType, byte[] data, int offset, int capLen);
}
