package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.track.HandshakeTracker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The hand-over between the reading thread and the tracker's: however far the reading thread runs ahead, it makes no
 * more than the eight batches the queues hold, and each packet reaches the tracker once, in the order it was read,
 * through whichever batch carried it.
 */
class TrackingThreadTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void everyPacketIsTrackedOnceInOrderWhenTheReaderRunsAheadOfTheTracker() throws Exception {
        int packets = 20 * 1024 + 7;
        AtomicReference<Thread> reader = new AtomicReference<>();
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean held = new AtomicBoolean();
        List<Long> decided = new ArrayList<>();
        // The first attempt is decided when the second SYN comes 100 s later: the tracker waits there until the reading
        // thread waits for a free batch, which it does only once all eight are made and full (with the tracker held, no
        // other wait is left to it: the queue of full batches has room for all but the one the tracker holds). More than
        // the eight the two queues hold, and both threads would end up waiting on a full queue: the test times out (tried).
        HandshakeTracker tracker = new HandshakeTracker(a -> {
            if (decided.isEmpty()) {
                held.set(true);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            decided.add(a.syn().frame);
            return false;
        }, 1 << 20);
        Thread releaser = new Thread(() -> {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!held.get() || reader.get() == null || reader.get().getState() != Thread.State.WAITING) {
                if (System.nanoTime() > deadline) {
                    return; // the tracker stays held, and the timeout below fails the test
                }
                Thread.yield();
            }
            release.countDown();
        });
        releaser.setDaemon(true);
        releaser.start();
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            reader.set(Thread.currentThread()); // JUnit runs this on a thread of its own
            TrackingThread stage = new TrackingThread(tracker);
            Frame f = new Frame();
            f.capture = new Capture(0, "test");
            for (int i = 1; i <= packets; i++) {
                f.number = i;
                f.nanos = i == 1 ? 0 : 100 * SECOND + i;
                syn(stage.view(), i);
                stage.observe(f);
            }
            stage.finish();
        });
        tracker.finish();
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= packets; i++) {
            expected.add(i);
        }
        assertEquals(expected, decided);
    }

    /** A SYN from 10.x.y.z to 10.96.0.1:443, its client address and port made of {@code i}, so that each is an attempt. */
    private static void syn(PacketView v, int i) {
        v.kind = PacketView.Kind.TCP;
        v.ipVersion = 4;
        v.srcHi = 0;
        v.srcLo = 0xffffL << 32 | 0x0a000000L | (i >>> 14);
        v.dstHi = 0;
        v.dstLo = 0xffffL << 32 | 0x0a600001L;
        v.srcPort = 1024 + (i & 0x3fff);
        v.dstPort = 443;
        v.seq = i;
        v.flags = PacketView.SYN;
        v.ttl = 64;
    }
}
