package io.pcapdiag.capture;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that read windows of all open captures may hold together. The first captures get large windows (few
 * reads); once the budget is spent, further ones get small windows, so memory does not grow with the number of files
 * on the command line. What a capture was granted is given back when it is closed.
 */
final class ReadBudget {
    /** What a capture gets once the budget is spent: still hundreds of packets per read. */
    static final int SMALL = 64 << 10;
    /** A quarter of the heap, at most 192 MiB: the tracker and the findings keep the rest. */
    private static final long TOTAL = Math.min(192L << 20, Runtime.getRuntime().maxMemory() / 4);
    private static final AtomicLong left = new AtomicLong(TOTAL);

    private ReadBudget() {
    }

    /** Takes {@code wanted} bytes from the budget if they are there, otherwise {@code small} (taken regardless). */
    static int grant(int wanted, int small) {
        return (int) grant((long) wanted, small);
    }

    static long grant(long wanted, long small) {
        long now;
        do {
            now = left.get();
            if (now < wanted) {
                left.addAndGet(-small);
                return small;
            }
        } while (!left.compareAndSet(now, now - wanted));
        return wanted;
    }

    static void release(long granted) {
        left.addAndGet(granted);
    }

    /** Bytes not yet granted (for tests). */
    static long left() {
        return left.get();
    }
}
