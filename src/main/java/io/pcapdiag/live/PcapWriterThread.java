package io.pcapdiag.live;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code --write} for one interface: a {@link PcapFileWriter} on a thread of its own, so that a slow disk
 * never stalls the capture thread. The capture thread hands each packet over through a bounded queue;
 * when the queue is full it waits, so the file and the analysis always miss the same packets (those the
 * kernel dropped, which its counter shows). The file is flushed whenever the writer is idle, and at least
 * every second, so it can be read while the capture runs.
 */
final class PcapWriterThread {
    static final int QUEUE_CAPACITY = 1 << 14;
    private static final long FLUSH_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final Captured END = new Captured(null, 0, new byte[0], 0, 0);

    private final PcapFileWriter dumper;
    private final Path file;
    private final BlockingQueue<Captured> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread thread;
    private volatile String failure;

    PcapWriterThread(PcapFileWriter dumper, Path file, String device) {
        this.dumper = dumper;
        this.file = file;
        this.thread = new Thread(this::run, "write-" + device);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Capture thread: queues a packet for the file, waiting while the queue is full. */
    void write(Captured c) throws InterruptedException {
        if (failure != null) {
            return;
        }
        while (!queue.offer(c, 100, TimeUnit.MILLISECONDS)) {
            if (!thread.isAlive()) {
                return;
            }
        }
    }

    /** Capture thread, at its end: writes what is queued, closes the file. */
    void finish() throws InterruptedException {
        if (thread.isAlive()) {
            while (!queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
                if (!thread.isAlive()) {
                    break;
                }
            }
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }
        try {
            dumper.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = "writing " + file + " failed: " + e.getMessage();
            }
        }
    }

    /** Why writing stopped (a full disk), or null. */
    String failure() {
        return failure;
    }

    private void run() {
        long lastFlush = System.nanoTime();
        boolean dirty = false;
        try {
            while (true) {
                Captured c = queue.poll(200, TimeUnit.MILLISECONDS);
                if (c == END) {
                    break;
                }
                if (c != null) {
                    dumper.write(c.nanos(), c.data(), c.origLen());
                    dirty = true;
                }
                long now = System.nanoTime();
                if (dirty && (c == null || now - lastFlush >= FLUSH_NANOS)) {
                    dumper.flush();
                    dirty = false;
                    lastFlush = now;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            failure = "writing " + file + " failed: " + e.getMessage();
            queue.clear();
        }
    }
}
