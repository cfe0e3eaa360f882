package io.pcapdiag.track;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Pairs SYNs with their answers (docs/design.md "Connection attempts"). Time is capture time: an attempt is
 * decided {@link #FIRST_DECISION_NANOS} after its SYN (after its next retransmission is due, once it was
 * retransmitted), so late copies of its packets on other interfaces still find it. The table is
 * bounded; the oldest attempt is evicted when it is full.
 */
public final class HandshakeTracker {
    /** An attempt with no answer is unanswered once the capture went on this long after its SYN (docs/design.md). */
    public static final long LINGER_NANOS = 3_000_000_000L;
    /**
     * When an attempt never retransmitted is decided: a second later than {@link #LINGER_NANOS}, so that a
     * stack whose first SYN retransmission comes at 3 s (Windows' initial RTO) is still the same attempt.
     */
    static final long FIRST_DECISION_NANOS = LINGER_NANOS + 1_000_000_000L;
    /**
     * The same SYN seen again this much later is a retransmission; sooner, it is the same packet seen on
     * another interface ({@code -i any} sees it on the veth and on the bridge within microseconds). Linux
     * retransmits a SYN after 1 s, and no stack sooner than its 200 ms minimum RTO.
     */
    public static final long RETRANSMIT_GAP_NANOS = 150_000_000L;
    /** The longest retransmission timeout (Linux TCP_RTO_MAX): bounds how long a retransmitted SYN is awaited. */
    static final long MAX_SYN_RTO_NANOS = 120_000_000_000L;
    /** How far back a seq-less ICMP quote (cut by a short snaplen) is matched by ports alone. */
    private static final int QUOTE_SCAN_LIMIT = 4096;

    /** Decided attempts held for reuse, at most (about 220 bytes each, and the packets each kept until reused). */
    private static final int MAX_FREE = 4096;

    private final AttemptTable table = new AttemptTable();
    /**
     * Decided attempts their sink did not hold, reused for the next SYNs: an attempt each new would be the tracker's
     * whole allocation, a young collection every few hundred thousand attempts (docs/performance.md).
     */
    private final Attempt[] free = new Attempt[MAX_FREE];
    private int freeCount;
    private final ArrayDeque<Attempt> queue = new ArrayDeque<>();
    private final TrackerSink sink;
    private final int maxOpen;
    private long clock = Long.MIN_VALUE;

    private long attempts;
    private long evicted;
    private long peakOpen;
    private long unmatchedAnswers;

    public HandshakeTracker(TrackerSink sink, int maxOpen) {
        if (maxOpen < 1) {
            throw new IllegalArgumentException("maxOpen must be positive");
        }
        this.sink = sink;
        this.maxOpen = maxOpen;
    }

    /**
     * Whether {@link #observe} does more with {@code v} than move the clock: a TCP segment with SYN or RST, or an ICMP
     * error. A mid-connection segment (most of a node's capture) only tells the time.
     */
    public static boolean concerns(PacketView v) {
        return v.kind == PacketView.Kind.ICMP_ERROR
                || v.kind == PacketView.Kind.TCP && (v.flags & (PacketView.SYN | PacketView.RST)) != 0;
    }

    /** Feeds one decoded packet. */
    public void observe(Frame f, PacketView v) {
        advanceClock(f.nanos);
        if (!concerns(v)) {
            return;
        }
        if (v.kind == PacketView.Kind.TCP) {
            int flags = v.flags;
            if ((flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == PacketView.SYN) {
                syn(f, v);
            } else if ((flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == (PacketView.SYN | PacketView.ACK)) {
                synAck(f, v);
            } else if ((flags & PacketView.RST) != 0) {
                reset(f, v);
            }
        } else if (v.kind == PacketView.Kind.ICMP_ERROR) {
            if (v.quotedProtocol == 6 && v.quotedHasPorts) {
                icmp(f, v);
            } else if (!v.quotedHasPorts && v.truncated) {
                // The snap length cut the quote before the ports: no telling which SYN it answers.
                sink.unpairedIcmp(Endpoint.address(v.dstHi, v.dstLo));
            }
        }
    }

    /**
     * Capture time moved on (a packet the tracker need not see, or {@link #observe}): decide the attempts
     * whose time is up. Time never goes back: a packet stamped earlier than one already seen does not
     * rewind it.
     */
    public void advanceClock(long nanos) {
        if (nanos > clock) {
            clock = nanos;
            expire(nanos);
        }
    }

    private void syn(Frame f, PacketView v) {
        Attempt a = table.get(v.srcHi, v.srcLo, v.srcPort, v.seq);
        if (a == null) {
            if (table.size() >= maxOpen) {
                evictOldest();
            }
            if (freeCount > 0) {
                a = free[--freeCount];
                free[freeCount] = null;
                a.start(f, v);
            } else {
                a = new Attempt(f, v);
            }
            a.expiresAt = f.nanos + FIRST_DECISION_NANOS;
            a.queuedExpiry = a.expiresAt;
            table.put(a);
            queue.addLast(a);
            attempts++;
            peakOpen = Math.max(peakOpen, table.size());
            return;
        }
        Sighting seen = new Sighting(f, v);
        a.see(seen);
        if (!a.isTarget(v.dstHi, v.dstLo, v.dstPort)) {
            if (a.natCopy == null) {
                a.natCopy = seen;
            }
        } else if (f.nanos - a.lastSynNanos >= RETRANSMIT_GAP_NANOS) {
            long gap = f.nanos - a.lastSynNanos;
            a.retransmissions++;
            a.lastSynNanos = f.nanos;
            // Each SYN retransmission doubles the timeout (RFC 6298 5.5; Linux: 1, 3, 7, 15, 31, 63 s), so the
            // next one is due 2 x gap later, soon beyond LINGER_NANOS: stay open for it, or it would open a
            // second attempt with the same (client, port, ISN).
            long nextSyn = Math.min(2 * gap, MAX_SYN_RTO_NANOS);
            a.expiresAt = Math.max(a.expiresAt, f.nanos + nextSyn + LINGER_NANOS);
        }
    }

    private void synAck(Frame f, PacketView v) {
        Attempt a = table.get(v.dstHi, v.dstLo, v.dstPort, v.ack - 1);
        if (a == null) {
            unmatched();
            return;
        }
        if (a.isTarget(v.srcHi, v.srcLo, v.srcPort)) {
            if (!a.answeredByTarget) {
                a.answeredByTarget = true;
                a.retransmissionsBeforeAnswer = a.retransmissions;
                a.answeredSynNanos = a.lastSynNanos;
                a.answerNanos = f.nanos;
                if (a.retransmissions > 0) {
                    a.synAck = new Sighting(f, v);
                    a.see(a.synAck);
                }
            } else if (a.synAck != null) {
                a.see(new Sighting(f, v)); // a delayed answer seen again, on another interface
            }
        } else {
            Sighting seen = new Sighting(f, v);
            a.see(seen);
            if (a.otherSynAck == null) {
                a.otherSynAck = seen;
            }
        }
    }

    private void reset(Frame f, PacketView v) {
        // A RST answering the SYN carries ACK = ISN+1 (RFC 9293 3.10.7.1, "reset generation").
        if ((v.flags & PacketView.ACK) != 0) {
            Attempt a = table.get(v.dstHi, v.dstLo, v.dstPort, v.ack - 1);
            if (a != null) {
                Sighting seen = new Sighting(f, v);
                a.see(seen);
                if (a.reset == null || (!a.isTarget(a.reset.srcHi, a.reset.srcLo, a.reset.srcPort)
                        && a.isTarget(v.srcHi, v.srcLo, v.srcPort))) {
                    a.reset = seen;
                }
                return;
            }
        }
        // The client refusing a SYN-ACK it has no socket for answers with SEQ = the SYN-ACK's ACK = ISN+1.
        Attempt a = table.get(v.srcHi, v.srcLo, v.srcPort, v.seq - 1);
        if (a != null) {
            Sighting seen = new Sighting(f, v);
            a.see(seen);
            if (a.clientReset == null) {
                a.clientReset = seen;
            }
            return;
        }
        if ((v.flags & PacketView.ACK) != 0) {
            unmatched();
        }
    }

    private void icmp(Frame f, PacketView v) {
        Attempt a = v.quotedHasSeq
                ? table.get(v.quotedSrcHi, v.quotedSrcLo, v.quotedSrcPort, v.quotedSeq)
                : byPorts(v);
        if (a == null) {
            unmatched();
            return;
        }
        Sighting seen = new Sighting(f, v);
        a.see(seen);
        if (a.icmp == null) {
            a.icmp = seen;
        }
    }

    /**
     * The newest open attempt from the quoted client:port to the quoted destination address:port (its
     * target, or the destination of its DNAT'ed copy). The address matters: Linux shares an ephemeral port
     * between connections to different destinations.
     */
    private Attempt byPorts(PacketView v) {
        Iterator<Attempt> it = queue.descendingIterator();
        for (int i = 0; i < QUOTE_SCAN_LIMIT && it.hasNext(); i++) {
            Attempt a = it.next();
            if (a.clientPort == v.quotedSrcPort && a.clientLo == v.quotedSrcLo && a.clientHi == v.quotedSrcHi
                    && (a.isTarget(v.quotedDstHi, v.quotedDstLo, v.quotedDstPort) || (a.natCopy != null
                            && a.natCopy.dstPort == v.quotedDstPort && a.natCopy.dstLo == v.quotedDstLo
                            && a.natCopy.dstHi == v.quotedDstHi))) {
                return a;
            }
        }
        return null;
    }

    private void expire(long now) {
        while (!queue.isEmpty()) {
            Attempt head = queue.peekFirst();
            if (head.expiresAt <= now) {
                queue.pollFirst();
                decide(head, now);
            } else if (head.queuedExpiry <= now) {
                // Retransmitted since it was queued: requeue. Look again within LINGER_NANOS rather than at
                // its expiry, which may be minutes away: at the head it would hold back every attempt queued
                // behind it (each due LINGER_NANOS after its SYN) until then.
                queue.pollFirst();
                head.queuedExpiry = Math.min(head.expiresAt, now + LINGER_NANOS);
                queue.addLast(head);
            } else {
                return;
            }
        }
    }

    private void evictOldest() {
        Attempt oldest = queue.pollFirst();
        oldest.evicted = true;
        evicted++;
        decide(oldest, clock);
    }

    private void decide(Attempt a, long now) {
        table.remove(a);
        a.outcome = outcomeOf(a, now);
        if (!sink.decided(a) && freeCount < MAX_FREE) {
            free[freeCount++] = a;
        }
    }

    static Outcome outcomeOf(Attempt a, long now) {
        if (a.answeredByTarget) {
            return Outcome.ANSWERED;
        }
        if (a.otherSynAck != null) {
            return Outcome.BYPASSED;
        }
        if (a.reset != null) {
            return Outcome.REFUSED;
        }
        if (a.icmp != null) {
            return Outcome.REJECTED;
        }
        if (a.evicted) {
            return Outcome.EVICTED;
        }
        return a.retransmissions > 0 || now - a.synNanos >= LINGER_NANOS ? Outcome.UNANSWERED : Outcome.PENDING;
    }

    /** The capture ended: decide every open attempt, as of the last packet's time. */
    public void finish() {
        while (!queue.isEmpty()) {
            decide(queue.pollFirst(), clock);
        }
    }

    public long attempts() {
        return attempts;
    }

    public long evicted() {
        return evicted;
    }

    public long peakOpen() {
        return peakOpen;
    }

    public int open() {
        return table.size();
    }

    private void unmatched() {
        unmatchedAnswers++;
        sink.unmatchedAnswer();
    }

    public long unmatchedAnswers() {
        return unmatchedAnswers;
    }

    public int maxOpen() {
        return maxOpen;
    }
}
