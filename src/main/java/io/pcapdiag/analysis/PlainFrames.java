package io.pcapdiag.analysis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.FrameFilter;
import io.pcapdiag.decode.Prefilter;
import java.util.List;

/**
 * The prefilter as the sources' {@link FrameFilter}: a plain frame (a TCP segment without SYN or RST, a UDP datagram
 * to no overlay's port: {@link Prefilter}) is counted in its capture's summary where the source read it, and only the
 * latest capture time among those taken is kept, which is all the tracker needs of them (it advances its clock to the
 * time before each packet it sees, see {@link Analysis#read}).
 */
final class PlainFrames implements FrameFilter {
    private final List<CaptureSummary> summaries;
    /** Null until {@link #onProgress}. */
    private Runnable progress;
    /** The capture of the last frame taken, and its summary: one capture's frames come in runs. */
    private Capture lastCapture;
    private CaptureSummary last;
    /** The latest capture time of the frames taken, or {@link Long#MIN_VALUE}. */
    long clock = Long.MIN_VALUE;
    /** Frames taken. */
    long taken;
    /** Frames the sources handed out instead, counted by the caller. */
    long handedOut;

    PlainFrames(List<CaptureSummary> summaries) {
        this.summaries = summaries;
    }

    /** Run every 65,536 frames taken, so that a capture of plain frames alone shows progress too. */
    void onProgress(Runnable progress) {
        this.progress = progress;
    }

    /** Frames read so far: taken, and handed out. */
    long frames() {
        return taken + handedOut;
    }

    @Override
    public boolean take(Capture capture, long nanos, int linkType, byte[] data, int offset, int capLen) {
        int plain = CaptureSummary.plain(linkType, data, offset, capLen);
        if (plain == Prefilter.DECODE) {
            return false;
        }
        if (capture != lastCapture) {
            lastCapture = capture;
            last = summaries.get(capture.index());
        }
        last.countPlain(nanos, linkType, plain);
        if (nanos > clock) {
            clock = nanos;
        }
        if ((++taken & 0xffff) == 0) {
            if (progress != null) {
                progress.run();
            }
        }
        return true;
    }
}
