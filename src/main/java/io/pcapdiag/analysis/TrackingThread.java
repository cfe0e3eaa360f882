package io.pcapdiag.analysis;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.track.HandshakeTracker;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The second stage of an offline analysis on a machine with more than one core: the reading thread decodes each
 * packet straight into a pre-allocated slot, and hands over those the tracker {@link HandshakeTracker#concerns
 * concerns}, in batches; this thread feeds them to the tracker. A slot carries, besides the packet, the capture time
 * read before it (packets not handed over included), so the tracker decides attempts at the same points as when it
 * sees every packet itself ({@link Tracking}).
 */
final class TrackingThread implements Tracking {
    private static final int BATCH = 1024;
    private static final int BATCHES = 8;

    /** One decoded packet: the frame's metadata (never its bytes) and its view. */
    private static final class Slot {
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
    /** Batches made so far, up to {@link #BATCHES}: a new one only when none is free, so a small capture makes one. */
    private int made;
    /** The latest capture time read so far, handed over or not. */
    private long clock = Long.MIN_VALUE;
    private volatile Throwable failure;

    TrackingThread(HandshakeTracker tracker) {
        this.tracker = tracker;
        current = new Batch();
        made = 1;
        thread = new Thread(this::run, "pcapdiag-tracker");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public PacketView view() {
        return current.slots[current.size].view;
    }

    /** Hands the slot just decoded into over, with the frame's metadata and the capture time before it. */
    @Override
    public void observe(Frame f) {
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
        s.clockBefore = clock;
        advanceClock(f.nanos);
        if (current.size == BATCH) {
            handOver(s.clockBefore, false);
        }
    }

    @Override
    public void advanceClock(long nanos) {
        clock = Math.max(clock, nanos);
    }

    /** All packets are read: lets the tracker catch up to the last capture time read, and waits for it. */
    @Override
    public void finish() {
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

    private void run() {
        // Read once: the reading thread writes this object's clock and current batch on every packet, and a field beside
        // them read for every packet would bring their cache line over from the other core each time.
        HandshakeTracker tracker = this.tracker;
        try {
            while (true) {
                Batch b = full.take();
                if (failure == null) {
                    try {
                        for (int i = 0; i < b.size; i++) {
                            Slot s = b.slots[i];
                            tracker.advanceClock(s.clockBefore);
                            tracker.observe(s.frame, s.view);
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
