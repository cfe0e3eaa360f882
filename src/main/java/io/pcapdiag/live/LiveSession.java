package io.pcapdiag.live;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.decode.LinkTypes;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.report.Reporter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * One {@code pcapdiag live} run: the analysis thread's loop. It takes packets from {@link LiveCapture}'s
 * queue into {@link LiveAnalysis}, and on a timer moves the clock, reads capture statistics, streams
 * findings, rescans interfaces and prints summaries, until it is stopped
 * ({@link #requestStop}), the duration is over or the count is reached. Then it stops every capture
 * thread, analyses what they had captured, and prints the final report.
 */
public final class LiveSession {
    /** How long a packet may wait for an older one from another interface. */
    static final long REORDER_WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Clock ticks, statistics and stream checks. */
    static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final long POLL_MILLIS = 50;
    private static final int BATCH = 8192;

    /**
     * When and how long.
     *
     * @param durationNanos stop after this long; 0 = until stopped
     * @param summaryNanos  print a summary this often; 0 = never
     * @param rescanNanos   look for new interfaces this often
     */
    public record Timing(long durationNanos, long summaryNanos, long rescanNanos) {
    }

    private final CaptureSettings settings;
    private final Timing timing;
    private final Consumer<String> warn;
    private final LongSupplier wallNanos;
    private final LiveAnalysis live;
    private final LiveCapture capture;
    private volatile boolean stopRequested;
    private volatile int openInterfaces;

    /**
     * @param reporters   the output (and events): told about findings, counters and the final report
     * @param metrics     told the same after them, and about each DNS query as it is decided; or null
     * @param maxFindings findings listed in full in the final report
     */
    public LiveSession(CaptureSettings settings, Timing timing, Analysis.Options options, List<Reporter> reporters,
                       LiveMetrics metrics, int maxFindings, Consumer<String> warn) {
        this.settings = settings;
        this.timing = timing;
        this.warn = warn;
        this.wallNanos = () -> System.currentTimeMillis() * 1_000_000L;
        this.live = new LiveAnalysis(options, reporters, metrics, maxFindings);
        live.keepNewestFindings(warn);
        this.capture = new LiveCapture(settings, 0, warn, LiveCapture::allDevices);
    }

    /** Asks the run to end (a signal handler, any thread): it stops capturing, then reports. */
    public void requestStop() {
        stopRequested = true;
    }

    /** Whether some interface is being captured (readiness; any thread). */
    public boolean capturing() {
        return openInterfaces > 0;
    }

    /**
     * Captures until stopped, the duration is over or the count is reached, then reports.
     *
     * @return the final result (the findings of the whole run)
     * @throws LiveException when no interface can be captured at all
     */
    public Result run() throws LiveException, InterruptedException {
        long start = wallNanos.getAsLong();
        opened(capture.rescan());
        if (capture.open().isEmpty()) {
            if (capture.permissionDenied()) {
                throw new LiveException(Privileges.NO_CAPTURE_PRIVILEGE);
            }
            if (!capture.openFailures().isEmpty()) {
                throw new LiveException(String.join("; ", capture.openFailures().values()));
            }
            if (!capture.missing().isEmpty() && !settings.interfaces().hasGlob()) {
                throw new LiveException("no such interface: " + String.join(", ", capture.missing())
                        + " (ip link shows this host's interfaces)");
            }
            if (!settings.interfaces().hasGlob()) {
                throw new LiveException("no interface to capture on: -i " + settings.interfaces()
                        + " matches none of this host's interfaces (ip link shows them)");
            }
            warn.accept("no interface matches -i " + settings.interfaces() + " yet; waiting for one to appear");
        } else {
            capture.openFailures().values().forEach(warn);
        }
        for (String m : capture.missing()) {
            warn.accept("interface " + m + " does not exist (yet); it will be captured when it appears");
        }
        long now = start;
        long deadline = timing.durationNanos() > 0 ? start + timing.durationNanos() : Long.MAX_VALUE;
        long nextTick = now + TICK_NANOS;
        long nextRescan = now + timing.rescanNanos();
        long nextSummary = timing.summaryNanos() > 0 ? now + timing.summaryNanos() : Long.MAX_VALUE;
        long lastSummary = now;
        long lastFed = Long.MIN_VALUE / 2;
        List<Captured> batch = new ArrayList<>(BATCH);
        var queue = capture.queue();
        while (!stopRequested && !capture.countReached()) {
            Captured c = queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
            if (c != null) {
                live.add(c);
                queue.drainTo(batch, BATCH);
                for (Captured b : batch) {
                    live.add(b);
                }
                batch.clear();
            }
            now = wallNanos.getAsLong();
            long watermark = live.watermark(capture.open(), now, REORDER_WINDOW_NANOS, queue.isEmpty());
            if (live.release(watermark) > 0) {
                lastFed = now;
            }
            if (now >= deadline) {
                break;
            }
            if (now >= nextTick) {
                nextTick = now + TICK_NANOS;
                if (now - lastFed >= REORDER_WINDOW_NANOS) {
                    // Packets stopped: move the clock ourselves (while they flow, they move it).
                    live.tick(watermark);
                }
                reap();
                live.stream(now, false);
                live.poll(now);
            }
            if (now >= nextRescan) {
                nextRescan = now + timing.rescanNanos();
                opened(capture.rescan());
            }
            if (now >= nextSummary) {
                nextSummary = now + timing.summaryNanos();
                live.summary(now, lastSummary);
                lastSummary = now;
            }
        }
        capture.stopAll(live::add);
        reap();
        openInterfaces = 0;
        return live.finish(start, wallNanos.getAsLong());
    }

    private void opened(List<InterfaceCapture> opened) {
        for (InterfaceCapture c : opened) {
            live.register(c);
            warn.accept("capturing on " + c.device + " (" + LinkTypes.name(c.linkType) + ")"
                    + (c.file != null ? ", writing " + c.file : ""));
        }
        openInterfaces = capture.open().size();
    }

    private void reap() {
        List<InterfaceCapture> gone = capture.reap();
        for (InterfaceCapture c : gone) {
            live.ended(c);
        }
        if (!gone.isEmpty()) {
            openInterfaces = capture.open().size();
        }
    }
}
