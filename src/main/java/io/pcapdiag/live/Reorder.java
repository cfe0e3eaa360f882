package io.pcapdiag.live;

import io.pcapdiag.capture.TimeOrder;
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
    /** {@link TimeOrder}, the order offline reads use too. */
    private static final Comparator<Captured> ORDER = (a, b) -> TimeOrder.compare(a.nanos(), a.source().capture().index(),
            a.number(), b.nanos(), b.source().capture().index(), b.number());

    private final PriorityQueue<Captured> heap = new PriorityQueue<>(1024, ORDER);
    private final Map<PacketSource, Long> latest = new HashMap<>();

    void add(Captured c) {
        heap.add(c);
        latest.merge(c.source(), c.nanos(), Math::max);
    }

    /**
     * The time up to which every packet of the {@code open} sources has been seen, as of wall-clock time
     * {@code now}. A source is complete up to its latest packet. A source that is idle, i.e. handed nothing
     * over for {@code window}, is not handing one over now, and has nothing left in the queue
     * ({@code drained}), is complete up to {@code now - window}: libpcap in immediate mode hands each packet
     * over as soon as the kernel has it. When the analysis falls behind, sources are not idle (they wait for
     * room in the queue, their older packets wait in the kernel buffer) and time advances only with packets.
     */
    long watermark(Collection<? extends PacketSource> open, long now, long window, boolean drained) {
        long w = Long.MAX_VALUE;
        for (PacketSource c : open) {
            long latest = this.latest.getOrDefault(c, Long.MIN_VALUE);
            long last = c.lastDelivery();
            boolean idle = drained && !c.handingOver() && (last == Long.MIN_VALUE || now - last >= window);
            w = Math.min(w, idle ? Math.max(latest, now - window) : latest);
        }
        return w == Long.MAX_VALUE ? now - window : w;
    }

    /** Hands every packet not newer than {@code upTo} to {@code sink}, oldest first; returns how many. */
    int release(long upTo, Consumer<Captured> sink) {
        int n = 0;
        while (!heap.isEmpty() && heap.peek().nanos() <= upTo) {
            sink.accept(heap.poll());
            n++;
        }
        return n;
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
