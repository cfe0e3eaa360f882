package io.pcapdiag.live;

import io.pcapdiag.decode.LinkTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Capture without analysis, for {@code pcapdiag collect}: the interfaces {@code -i} selects are captured by the same
 * {@link LiveCapture}, filter and {@code --write} files as {@code live}, for a while; the packets are only written.
 * The analysis thread's part is left to whoever reads the files: this loop only drains the queue (so that the
 * capture threads never wait on it) and looks for new interfaces.
 */
public final class Recording {
    private static final long POLL_MILLIS = 50;

    /**
     * What one interface's capture wrote.
     *
     * @param device   the interface
     * @param file     its pcap file
     * @param linkType LINKTYPE_* of its packets, as {@link LinkTypes#name} names it
     * @param stats    libpcap's counters at its end
     * @param ended    why it ended before the recording did (the interface went away), or null
     */
    public record Written(String device, Path file, String linkType, CaptureStats stats, String ended) {
    }

    private final CaptureSettings settings;
    private final long rescanNanos;
    private final Consumer<String> warn;
    private final LiveCapture capture;
    private volatile boolean stopRequested;

    /**
     * @param settings    how to capture; {@code write} must be a directory (each interface's file goes in it)
     * @param rescanNanos how often to look for new interfaces matching {@code -i}
     */
    public Recording(CaptureSettings settings, long rescanNanos, Consumer<String> warn) {
        this.settings = settings;
        this.rescanNanos = rescanNanos;
        this.warn = warn;
        this.capture = new LiveCapture(settings, 0, warn, LiveCapture::allDevices);
    }

    /** Asks the recording to end (a signal handler, any thread). */
    public void requestStop() {
        stopRequested = true;
    }

    /**
     * Captures for {@code durationNanos} (0: until {@link #requestStop}), then stops every capture and closes its file.
     *
     * @param started told once the first interfaces capture
     * @return each interface's file and counters, in the order they were opened
     * @throws LiveException when no interface can be captured at all
     */
    public List<Written> run(long durationNanos, Runnable started) throws LiveException, InterruptedException {
        List<InterfaceCapture> all = new ArrayList<>();
        opened(capture.rescan(), all);
        if (capture.open().isEmpty()) {
            if (capture.permissionDenied()) {
                throw new LiveException(Privileges.NO_CAPTURE_PRIVILEGE);
            }
            if (!capture.openFailures().isEmpty()) {
                throw new LiveException(String.join("; ", capture.openFailures().values()));
            }
            throw new LiveException("no interface to capture on: -i " + settings.interfaces()
                    + " matches none of this host's interfaces (ip link shows them)");
        }
        capture.openFailures().values().forEach(warn);
        started.run();
        long start = System.nanoTime();
        long nextRescan = start + rescanNanos;
        var queue = capture.queue();
        List<Captured> batch = new ArrayList<>();
        while (!stopRequested && !capture.countReached()) {
            if (queue.poll(POLL_MILLIS, TimeUnit.MILLISECONDS) != null) {
                queue.drainTo(batch);
                batch.clear();
            }
            long now = System.nanoTime();
            if (durationNanos > 0 && now - start >= durationNanos) {
                break;
            }
            if (now >= nextRescan) {
                nextRescan = now + rescanNanos;
                capture.reap();
                opened(capture.rescan(), all);
            }
        }
        capture.stopAll(c -> { });
        capture.reap();
        List<Written> out = new ArrayList<>();
        for (InterfaceCapture c : all) {
            out.add(new Written(c.device, c.file, LinkTypes.name(c.linkType), c.stats(),
                    c.endReason() != null ? c.endReason() : c.writeFailure()));
        }
        return out;
    }

    private void opened(List<InterfaceCapture> opened, List<InterfaceCapture> all) {
        for (InterfaceCapture c : opened) {
            all.add(c);
            warn.accept("capturing on " + c.device + " (" + LinkTypes.name(c.linkType) + ")");
        }
    }
}
