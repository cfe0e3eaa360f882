package io.pcapdiag.capture;

/**
 * The one order in which frames from several places reach the tracker: capture time; on equal times the
 * capture named first on the command line (or registered first, live); then file order (frame number).
 * Offline merging, the pcapng reordering window and live capture all use it, so the same packets give
 * the same findings whichever way they were read.
 */
public final class TimeOrder {
    private TimeOrder() {
    }

    /** Negative when frame a comes first, as {@link java.util.Comparator#compare}. */
    public static int compare(long nanosA, int captureA, long numberA, long nanosB, int captureB, long numberB) {
        if (nanosA != nanosB) {
            return Long.compare(nanosA, nanosB);
        }
        if (captureA != captureB) {
            return Integer.compare(captureA, captureB);
        }
        return Long.compare(numberA, numberB);
    }

    public static int compare(Frame a, Frame b) {
        return compare(a.nanos, a.capture.index(), a.number, b.nanos, b.capture.index(), b.number);
    }
}
