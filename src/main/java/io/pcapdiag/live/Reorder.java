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
 * older one: each interface is known to be complete up to its latest packet, and an interface that has
 * been quiet for the whole window is taken to be complete up to {@code now - window}.
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

    /** The time up to which every packet of the {@code open} interfaces has been seen. */
    long watermark(Collection<? extends PacketSource> open, long quietFloor) {
        long w = Long.MAX_VALUE;
        for (PacketSource c : open) {
            w = Math.min(w, Math.max(latest.getOrDefault(c, Long.MIN_VALUE), quietFloor));
        }
        return w == Long.MAX_VALUE ? quietFloor : w;
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
