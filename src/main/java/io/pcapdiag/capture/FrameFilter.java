package io.pcapdiag.capture;

/**
 * A stage a source offers each frame to before handing it out, as libpcap applies a BPF filter inside its read loop:
 * the frames the stage takes are its own (it counted them and needs nothing more of them), and the source goes on to
 * the next one; the caller of {@link FrameSource#next(FrameFilter)} sees only the others. On a busy node most frames
 * are mid-connection segments that the analysis only counts.
 */
@FunctionalInterface
public interface FrameFilter {
    /** Takes nothing: every frame is handed out. */
    FrameFilter NONE = f -> false;

    /** True when the stage took {@code f}; its bytes are valid only during the call. */
    boolean take(Frame f);

    /**
     * The stage's own failure (a bug in what it does with a frame, not in reading it), which a source passes on as it
     * is: it is not the capture's, so it must not cost the capture its remaining frames as a reader failure does.
     */
    final class Failure extends RuntimeException {
        public Failure(RuntimeException cause) {
            super(cause);
        }

        @Override
        public synchronized RuntimeException getCause() {
            return (RuntimeException) super.getCause();
        }
    }
}
