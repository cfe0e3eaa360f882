package io.pcapdiag.live;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * Puts packets from several capture threads back in timestamp order before the tracker sees them, as the
 * offline reader merges files: a SYN seen on a veth and its answer seen on the bridge arrive through
 * different threads in either order. A packet is released once no open interface can still deliver an
 * older one (see {@link #watermark}).
 */
final class Reorder {
    private static final Comparator<Captured> ORDER = Comparator.comparingLong(Captured::nanos)
            .thenComparingInt(c -> c.source().capture().index())
            .thenComparingLong(Captured::number);

    private final PriorityQueue<Captured> heap = new PriorityQueue<>(1024, ORDER);
    private final Map<PacketSource, Long> latest = new HashMap<>();

    void add(Captured c) {
        heap.add(c);
        latest.merge(c.source(), c.nanos(), Math::max);
    }

    /**
     * The time up to which every packet of the {@code open} sources has been seen, as of wall-clock time
     * {@code now}. A source that is handing packets over is complete up to its latest packet (when the
     * analysis falls behind, that is well before {@code now}: its older packets are still in the kernel
     * buffer). A source that has handed nothing over for {@code window} is complete up to {@code now - window}.
     */
    long watermark(Collection<? extends PacketSource> open, long now, long window) {
        long w = Long.MAX_VALUE;
        for (PacketSource c : open) {
            long latest = this.latest.getOrDefault(c, Long.MIN_VALUE);
            long last = c.lastDelivery();
            boolean quiet = last == Long.MIN_VALUE || now - last >= window;
            long complete = quiet ? Math.max(latest, now - window) : latest;
            w = Math.min(w, complete);
        }
        return w == Long.MAX_VALUE ? now - window : w;
    }

    /** Hands every packet not newer than {@code upTo} to {@code sink}, oldest first. */
    void release(long upTo, Consumer<Captured> sink) {
        while (!heap.isEmpty() && heap.peek().nanos() <= upTo) {
            sink.accept(heap.poll());
        }
    }

    void releaseAll(Consumer<Captured> sink) {
        release(Long.MAX_VALUE, sink);
    }

    /** The capture ended: it will deliver nothing more. */
    void forget(PacketSource c) {
        latest.remove(c);
    }

    /** The oldest packet's time, or {@code Long.MAX_VALUE} when none is held. */
    long oldest() {
        return heap.isEmpty() ? Long.MAX_VALUE : heap.peek().nanos();
    }

    int pending() {
        return heap.size();
    }
}
