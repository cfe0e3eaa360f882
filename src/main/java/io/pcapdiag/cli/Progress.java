package io.pcapdiag.cli;

import io.pcapdiag.analysis.Analysis;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Shows how far a long analysis is, on stderr, when stderr is a terminal and stdout is not a pipe:
 * nothing for the first two seconds, then bytes and packets done, rate and ETA twice a second, on one
 * line that is cleared at the end.
 */
final class Progress implements AutoCloseable {
    private static final long DELAY_MS = 2000;
    private static final long EVERY_MS = 500;

    private final Thread thread;
    private final PrintWriter err;
    private volatile boolean shown;

    private Progress(Analysis analysis, PrintWriter err) {
        this.err = err;
        this.thread = new Thread(() -> run(analysis), "pcapdiag-progress");
        thread.setDaemon(true);
    }

    /** A running display, or a no-op one where progress would land in a file or a pipe. */
    static Progress start(Analysis analysis, PrintWriter err) {
        Progress p = new Progress(analysis, err);
        if (isTerminal(2) && !isPipe(1)) {
            p.thread.start();
        }
        return p;
    }

    private void run(Analysis a) {
        long start = System.nanoTime();
        try {
            Thread.sleep(DELAY_MS);
            while (!Thread.currentThread().isInterrupted()) {
                double secs = (System.nanoTime() - start) / 1e9;
                long bytes = a.progressBytes();
                long total = a.totalBytes();
                double rate = bytes / secs;
                StringBuilder line = new StringBuilder("\r");
                line.append(mb(bytes));
                if (total > 0) {
                    line.append(" of ").append(mb(total)).append(String.format(Locale.ROOT, " (%d%%)", bytes * 100 / total));
                }
                line.append(String.format(Locale.ROOT, ", %.1f M packets, %.0f MB/s", a.progressPackets() / 1e6, rate / 1e6));
                if (total > 0 && rate > 0) {
                    line.append(String.format(Locale.ROOT, ", ETA %.0f s", (total - bytes) / rate));
                }
                synchronized (this) {
                    err.print(line.append("   "));
                    err.flush();
                    shown = true;
                }
                Thread.sleep(EVERY_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            if (shown) {
                err.print("\r" + " ".repeat(79) + "\r");
                err.flush();
            }
        }
    }

    /** Linux: whether file descriptor {@code fd} of this process is a terminal. */
    static boolean isTerminal(int fd) {
        String target = link(fd);
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    }

    static boolean isPipe(int fd) {
        return link(fd).startsWith("pipe:");
    }

    private static String link(int fd) {
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd)).toString();
        } catch (Exception e) {
            return "";
        }
    }
}
