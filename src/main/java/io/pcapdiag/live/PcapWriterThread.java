package io.pcapdiag.live;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapDumper;
import org.pcap4j.core.PcapNativeException;

/**
 * {@code --write} for one interface: pcap4j's dumper on a thread of its own. pcap4j builds a JNA
 * structure for every record it dumps (about 11 us a packet here), which on the capture thread cut the
 * rate pcapdiag could take from the kernel in half. The capture thread hands each packet over through a
 * bounded queue; when the queue is full it waits, so the file and the analysis always miss the same
 * packets (those the kernel dropped, which its counter shows). The file is flushed whenever the writer
 * is idle, and at least every second, so it can be read while the capture runs.
 *
 * <p>Limitation of pcap4j 1.8.2's {@code dumpRaw}: it writes the captured length as the original length,
 * so a record cut by the snap length says so only through its IP header's length.
 */
final class PcapWriterThread {
    static final int QUEUE_CAPACITY = 1 << 14;
    private static final long FLUSH_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final Captured END = new Captured(null, 0, new byte[0], 0, 0);

    private final PcapDumper dumper;
    private final Path file;
    private final BlockingQueue<Captured> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread thread;
    private volatile String failure;

    PcapWriterThread(PcapDumper dumper, Path file, String device) {
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
        dumper.close();
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
                    Timestamp ts = new Timestamp(Math.floorDiv(c.nanos(), 1_000_000_000L) * 1000L);
                    ts.setNanos((int) Math.floorMod(c.nanos(), 1_000_000_000L));
                    dumper.dumpRaw(c.data(), ts);
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
        } catch (PcapNativeException | NotOpenException | RuntimeException e) {
            failure = "writing " + file + " failed: " + e.getMessage();
            queue.clear();
        }
    }
}
