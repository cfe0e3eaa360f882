package io.pcapdiag.capture;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The frames of several captures as one stream in {@link TimeOrder}: what {@code analyze a.pcap b.pcap}
 * reads. Each capture is opened once; one that cannot be opened, or fails part-way, is reported to the
 * {@link Listener} and the others go on. A pcapng whose interfaces were written in bursts is put in time
 * order first ({@link TimeOrderedSource}).
 */
public final class MergedSource {
    /** Opens one capture (the built-in reader, or libpcap). */
    @FunctionalInterface
    public interface Opener {
        FrameSource open(Capture capture) throws CaptureException;
    }

    /** What happens to each capture, in the order it happens. */
    public interface Listener {
        /** The capture's header was read; its frames follow. */
        void opened(Capture capture);

        /** A problem, one line: the capture could not be opened, a record was skipped, reading stopped. */
        void problem(Capture capture, CaptureException e);

        /** No more frames from this capture; {@code stats} is final. */
        void ended(Capture capture, ReadStats stats);
    }

    /** An open capture and its current frame. */
    private static final class Head {
        final Capture capture;
        final FrameSource source;
        Frame frame;
        boolean ended;

        Head(Capture capture, FrameSource source) {
            this.capture = capture;
            this.source = source;
        }
    }

    private final Listener listener;
    private final List<Head> open = new ArrayList<>();
    /** The open captures by their current frame, in {@link TimeOrder}. */
    private final PriorityQueue<Head> heads = new PriorityQueue<>((x, y) -> TimeOrder.compare(x.frame, y.frame));
    private final long totalBytes;
    /** The head whose frame was handed out last: advanced on the next call. */
    private Head last;
    private boolean started;

    public MergedSource(List<Capture> captures, Opener opener, Listener listener) {
        this.listener = listener;
        long total = 0;
        for (Capture c : captures) {
            try {
                FrameSource src = opener.open(c);
                if (src.interleavesInterfaces()) {
                    src = new TimeOrderedSource(src);
                }
                Head h = new Head(c, src);
                src.onProblem(e -> listener.problem(c, e));
                listener.opened(c);
                open.add(h);
                long size = src.stats().sizeHint;
                total = size < 0 || total < 0 ? -1 : total + size;
            } catch (CaptureException e) {
                listener.problem(c, e);
            }
        }
        this.totalBytes = total;
    }

    /** The next frame in time order (valid until the next call), or null when every capture has ended. */
    public Frame next() {
        return next(FrameFilter.NONE);
    }

    /**
     * The next frame in time order that {@code filter} does not take, offering it every frame on the way in that
     * order; null when every capture has ended. One capture offers its frames from its own read loop.
     */
    public Frame next(FrameFilter filter) {
        if (open.size() == 1) {
            // One capture: no heap, and no per-frame comparison.
            Head h = open.get(0);
            return advance(h, filter) ? h.frame : null;
        }
        Frame f;
        do {
            f = merged();
        } while (f != null && filter.take(f));
        return f;
    }

    private Frame merged() {
        if (!started) {
            started = true;
            for (Head h : open) {
                if (advance(h, FrameFilter.NONE)) {
                    heads.add(h);
                }
            }
        } else if (last != null && advance(last, FrameFilter.NONE)) {
            heads.add(last);
        }
        last = heads.poll();
        return last == null ? null : last.frame;
    }

    /**
     * Reads the next frame of {@code h} that {@code filter} does not take; at its end (or on a failure) reports it
     * ended and closes it.
     */
    private boolean advance(Head h, FrameFilter filter) {
        if (h.ended) {
            return false;
        }
        try {
            h.frame = h.source.next(filter);
        } catch (CaptureException e) {
            listener.problem(h.capture, e);
            h.frame = null;
        } catch (FrameFilter.Failure e) {
            throw e;
        } catch (RuntimeException e) {
            // A reader bug costs the rest of this capture, not the report: said in one line, where it happened.
            listener.problem(h.capture, new CaptureException(h.capture.name(), h.source.stats().bytes,
                    "the reader failed (" + e + "); the rest of this capture is not read"));
            h.frame = null;
        }
        if (h.frame == null) {
            close(h);
            return false;
        }
        return true;
    }

    private void close(Head h) {
        h.ended = true;
        listener.ended(h.capture, h.source.stats());
        try {
            h.source.close();
        } catch (IOException ignored) {
            // Everything was read; a failing close loses nothing.
        }
    }

    /** Bytes of the inputs read so far (for a progress display). */
    public long bytesRead() {
        long bytes = 0;
        for (Head h : open) {
            bytes += h.source.stats().bytes;
        }
        return bytes;
    }

    /** Total size of the inputs, or -1 when one of them has no known size (stdin, a pipe). */
    public long totalBytes() {
        return totalBytes;
    }
}
