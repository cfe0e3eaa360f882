package io.pcapdiag.capture;

import java.io.IOException;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Delivers another source's frames in timestamp order within a bounded window. dumpcap writes a pcapng
 * with several interfaces in per-interface bursts, so a SYN captured on eth0 can follow, in the file,
 * its DNAT'ed copy captured later on cni0; the tracker needs the order in which things happened.
 * Frames are copied into the window (up to {@link #WINDOW_BYTES}); when it is full the earliest leaves.
 * The order is {@link TimeOrder}'s: within one capture, ties keep file order.
 */
public final class TimeOrderedSource implements FrameSource {
    /** Bytes of frames held at once: whole captures of the size one debugs by hand are fully sorted. */
    static final long WINDOW_BYTES = 32L << 20;
    /**
     * The window once the read budget is spent (dozens of pcapng files at once), so that memory does not grow with the
     * number of files: frames that dumpcap wrote more than this far apart may then stay out of time order.
     */
    static final long SMALL_WINDOW_BYTES = 256L << 10;

    private record Held(long nanos, int linkType, byte[] data, int origLen, long number, long fileOffset,
                        Capture capture, String interfaceName) {
    }

    private final FrameSource inner;
    private final PriorityQueue<Held> window = new PriorityQueue<>((a, b) ->
            TimeOrder.compare(a.nanos, a.capture.index(), a.number, b.nanos, b.capture.index(), b.number));
    private final Frame out = new Frame();
    private long held;
    private boolean innerDone;
    private CaptureException pending;
    private boolean released;

    /** Bytes this window may hold: {@link #WINDOW_BYTES} while the read budget lasts, less past it. */
    private final long limit;

    public TimeOrderedSource(FrameSource inner) {
        this.inner = inner;
        this.limit = ReadBudget.grant(WINDOW_BYTES, SMALL_WINDOW_BYTES);
    }

    @Override
    public Frame next() throws CaptureException {
        while (!innerDone && held < limit) {
            Frame f;
            try {
                f = inner.next();
            } catch (CaptureException e) {
                pending = e; // delivered after the frames read before it
                f = null;
            }
            if (f == null) {
                innerDone = true;
                break;
            }
            byte[] copy = new byte[f.capLen];
            System.arraycopy(f.data, f.offset, copy, 0, f.capLen);
            window.add(new Held(f.nanos, f.linkType, copy, f.origLen, f.number, f.fileOffset, f.capture,
                    f.interfaceName));
            held += copy.length + 64;
        }
        Held h = window.poll();
        if (h == null) {
            if (pending != null) {
                CaptureException e = pending;
                pending = null;
                throw e;
            }
            return null;
        }
        held -= h.data().length + 64;
        out.nanos = h.nanos();
        out.linkType = h.linkType();
        out.data = h.data();
        out.offset = 0;
        out.capLen = h.data().length;
        out.origLen = h.origLen();
        out.number = h.number();
        out.fileOffset = h.fileOffset();
        out.capture = h.capture();
        out.interfaceName = h.interfaceName();
        return out;
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
        return false;
    }

    @Override
    public void close() throws IOException {
        if (!released) {
            released = true;
            ReadBudget.release(limit);
        }
        window.clear();
        inner.close();
    }
}
