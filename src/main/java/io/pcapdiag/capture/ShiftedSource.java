package io.pcapdiag.capture;

import java.io.IOException;
import java.util.function.Consumer;

/** Another source's frames with their timestamps moved by a fixed amount: a capture from a node whose clock is off. */
public final class ShiftedSource implements FrameSource {
    private final FrameSource inner;
    private final long shiftNanos;

    /** @param shiftNanos added to every timestamp (negative for a clock that runs ahead) */
    public ShiftedSource(FrameSource inner, long shiftNanos) {
        this.inner = inner;
        this.shiftNanos = shiftNanos;
    }

    @Override
    public Frame next() throws CaptureException {
        Frame f = inner.next();
        if (f != null) {
            f.nanos += shiftNanos;
        }
        return f;
    }

    @Override
    public ReadStats stats() {
        return inner.stats();
    }

    @Override
    public void onProblem(Consumer<CaptureException> sink) {
        inner.onProblem(sink);
    }

    @Override
    public boolean interleavesInterfaces() {
        return inner.interleavesInterfaces();
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
