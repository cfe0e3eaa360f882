package io.pcapdiag.capture;

import java.io.Closeable;
import java.io.IOException;
import java.util.function.Consumer;

/** Delivers the frames of one capture in file order. */
public interface FrameSource extends Closeable {

    /**
     * Advances to the next frame.
     *
     * @return the frame (reused between calls), or null at the end of the capture
     * @throws CaptureException when the rest of the capture cannot be read; frames delivered so far stay valid
     */
    Frame next() throws CaptureException;

    /**
     * Advances to the next frame {@code filter} does not take, offering it each frame on the way in file order.
     *
     * @return the frame (reused between calls), or null at the end of the capture
     * @throws CaptureException as {@link #next()}; the frames offered so far stay offered
     */
    default Frame next(FrameFilter filter) throws CaptureException {
        Frame f;
        do {
            f = next();
        } while (f != null && filter.take(f));
        return f;
    }

    /** Statistics of what was read and skipped so far. */
    ReadStats stats();

    /**
     * Where recoverable problems go (a bad record skipped, the reader resynchronised), one line each.
     * The default drops them; the analysis wires this to its error stream.
     */
    default void onProblem(Consumer<CaptureException> sink) {
    }

    /**
     * Whether the format can hold several interfaces written in bursts, so that file order is not time
     * order (pcapng from dumpcap). The analysis then reads it through a {@link TimeOrderedSource}.
     */
    default boolean interleavesInterfaces() {
        return false;
    }

    @Override
    void close() throws IOException;
}
