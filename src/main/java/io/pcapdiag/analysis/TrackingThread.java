package io.pcapdiag.analysis;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.track.HandshakeTracker;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The second stage of an offline analysis on a machine with more than one core: the reading thread
 * decodes the packets that matter straight into pre-allocated slots, this thread feeds them to the
 * tracker. Slots carry, besides the packet, the capture time reached before it, so the tracker decides
 * attempts at the same points as when it sees every packet itself (see {@link Analysis#read}).
 */
final class TrackingThread {
    private static final int BATCH = 1024;
    private static final int BATCHES = 8;

    /** One decoded packet: the frame's metadata (never its bytes) and its view. */
    static final class Slot {
        final Frame frame = new Frame();
        final PacketView view = new PacketView();
        long clockBefore;
    }

    private static final class Batch {
        final Slot[] slots = new Slot[BATCH];
        int size;
        long endClock;
        boolean last;

        Batch() {
            for (int i = 0; i < BATCH; i++) {
                slots[i] = new Slot();
            }
        }
    }

    private final HandshakeTracker tracker;
    private final BlockingQueue<Batch> full = new ArrayBlockingQueue<>(BATCHES);
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(BATCHES);
    private final Thread thread;
    private Batch current;
    /**
     * Batches made so far, up to {@link #BATCHES}: a new one only when none is free, so that a small capture makes one
     * (the 8,192 slots of all eight, made up front, cost a seed capture's run about 3 ms of its 0.11 s, PERFORMANCE.md).
     */
    private int made;
    private volatile Throwable failure;

    TrackingThread(HandshakeTracker tracker) {
        this.tracker = tracker;
        current = new Batch();
        made = 1;
        thread = new Thread("pcapdiag-tracker") { // not a method reference: NoLambdaLinkedTest
            @Override
            public void run() {
                TrackingThread.this.run();
            }
        };
        thread.setDaemon(true);
        thread.start();
    }

    /** The slot to decode the next packet into; it is handed over only by {@link #commit}. */
    Slot slot() {
        return current.slots[current.size];
    }

    /** Hands the slot just decoded into over, with the frame's metadata and the capture time before it. */
    void commit(Frame f, long clockBefore) {
        Slot s = current.slots[current.size++];
        Frame m = s.frame;
        m.nanos = f.nanos;
        m.linkType = f.linkType;
        m.capLen = f.capLen;
        m.origLen = f.origLen;
        m.number = f.number;
        m.fileOffset = f.fileOffset;
        m.capture = f.capture;
        m.interfaceName = f.interfaceName;
        s.clockBefore = clockBefore;
        if (current.size == BATCH) {
            handOver(clockBefore, false);
        }
    }

    /** All packets are read: let the tracker catch up to {@code clock} and wait for it. */
    void finish(long clock) {
        handOver(clock, true);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the tracker finished", e);
        }
        Throwable t = failure;
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error err) {
            throw err;
        }
    }

    private void handOver(long clock, boolean last) {
        current.endClock = clock;
        current.last = last;
        try {
            full.put(current);
            current = last ? null : nextFree();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing packets to the tracker", e);
        }
    }

    private Batch nextFree() throws InterruptedException {
        Batch b = free.poll();
        if (b != null) {
            return b;
        }
        if (made < BATCHES) {
            made++;
            return new Batch();
        }
        return free.take();
    }

    /**
     * One packet: in a method of its own, which C1 compiles after 200 calls, where the loop above would run in the
     * interpreter for its first 60,000 rounds (C1's back-edge threshold).
     */
    private void track(Slot s) {
        tracker.advanceClock(s.clockBefore);
        tracker.observe(s.frame, s.view);
    }

    private void run() {
        try {
            while (true) {
                Batch b = full.take();
                if (failure == null) {
                    try {
                        for (int i = 0; i < b.size; i++) {
                            track(b.slots[i]);
                        }
                        tracker.advanceClock(b.endClock);
                    } catch (RuntimeException | Error e) {
                        failure = e; // keep draining so the reading thread never blocks; finish() rethrows
                    }
                }
                boolean last = b.last;
                b.size = 0;
                b.last = false;
                if (last) {
                    return;
                }
                free.put(b);
            }
        } catch (InterruptedException e) {
            failure = e;
        }
    }
}
