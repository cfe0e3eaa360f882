package io.pcapdiag.track;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the tracker follows of a connection after its handshake (docs/design.md, "Established connections"): the state
 * the three patterns after the handshake need and no more. It belongs to its {@link Attempt} and is reused with it.
 *
 * <p>Each end's segments are one {@link Side}: its MSS, how far it sent and how far the other end acknowledged, and
 * one segment of it watched until acknowledged (the "hole"), with its retransmissions. Only packets that tell
 * a pattern are kept as {@link Sighting}s (a retransmission of the hole, a RST, an ICMP error, a segment from the wrong
 * source): a healthy connection costs field writes, no objects.
 */
public final class Established {
    /** Packets kept per connection: a few retransmissions seen on a few interfaces, the RSTs, the ICMP errors. */
    static final int MAX_KEPT = 32;

    /** The client's segments, and the server's (the dialed address's, or its backend's). */
    final Side client = new Side();
    final Side server = new Side();
    /** The tracker began following the connection (its dialed address answered), and still does. */
    boolean followed;
    boolean following;
    /** Pushed out of the full table of followed connections before it ended: counted, never a finding. */
    boolean evicted;
    /** Capture time of the last segment of the connection, and when it ended (a RST, or both FINs), else 0. */
    long lastNanos;
    long endNanos;
    /** The segment from an address other than the dialed one, where the client itself received it, and the RST the
     * client sent that address. */
    Sighting wrongSource;
    Sighting clientResetOther;
    /** The first RST from the server's side (the dialed address or its backend) to the client. */
    Sighting serverReset;
    /** That RST came while the client's data went unacknowledged although it was sent again. */
    boolean serverResetUnanswered;
    /** {@link #serverReset} was seen where the client's SYN was (its copy there is preferred to the first). */
    boolean serverResetAtClient;
    /** The first RST from the client to the server's side. */
    Sighting clientReset;
    /**
     * The first ICMP error quoting a segment of the client that is no "fragmentation needed"/"packet too big", or its
     * copy where the client's SYN was seen ({@link #unreachableAtClient}): every view that holds the client's interface
     * then names the same source (the Service address, once reverse-NAT'ed), whatever it saw first.
     */
    Sighting unreachable;
    boolean unreachableAtClient;
    /**
     * ICMP "fragmentation needed" / "packet too big" quoting a segment of the connection, each copy seen; null until
     * there is one (lists are made only when something is kept: a node follows hundreds of thousands of connections).
     */
    ArrayList<Sighting> tooBig;
    /** Every packet kept, in capture order (at most {@link #MAX_KEPT}); null until there is one. */
    ArrayList<Sighting> kept;

    /** One end of the connection: what it sent and what of that the other end acknowledged. */
    public static final class Side {
        /** The MSS its SYN (or SYN-ACK) offered, else -1. */
        int mss;
        /** It sent its FIN. */
        boolean fin;
        /** The sequence number after the last byte it sent (its ISN + 1 before any). */
        int next;
        /** Whether the other end acknowledged any of its data, and how far. */
        boolean acked;
        int ack;
        /** The largest segment (bytes of data) of it that the other end acknowledged. */
        int largestAcked;
        /** Whether the other end announced a zero window while the hole was outstanding (a full receiver, no loss). */
        boolean zeroWindow;
        /**
         * The segment watched for loss (the "hole"): the first one sent after the previous one watched was acknowledged
         * (so a healthy transfer rewrites these fields once per acknowledgment, and allocates nothing); present, its
         * sequence number and length, its IP payload length (TCP header and data).
         */
        boolean hole;
        int holeSeq;
        int holeLength;
        int holeIpPayload;
        /** When the hole was last sent, and how often it was sent again (copies on other interfaces not counted). */
        long holeSentNanos;
        int holeRetransmissions;
        /**
         * The hole's first transmission, as seen first, as far as its retransmissions may not share it (where and when it
         * was seen, its acknowledgment number, window, flags and TTL): a {@link Sighting} is made of it only once the hole
         * is sent again, which a healthy connection never does.
         */
        private Capture firstCapture;
        private String firstInterface;
        private long firstFrame;
        private long firstNanos;
        private int firstIfIndex;
        private int firstPacketType;
        private int firstAck;
        private int firstWindow;
        private int firstFlags;
        private int firstTtl;
        /**
         * The hole's first transmission and each retransmission (their first copies; the copies on other interfaces
         * are in {@link Established#kept}), once it was retransmitted.
         */
        ArrayList<Sighting> holeSends;
        /** The largest hole that was retransmitted at least twice and never acknowledged, with its sends; else null. */
        List<Sighting> lostSends;
        int lostRetransmissions;
        int lostLength;
        int lostIpPayload;
        /** A hole acknowledged after it was retransmitted (loss that recovered), and a hole sent again smaller. */
        boolean recovered;
        boolean resegmented;

        /**
         * How far from {@link #next} a segment of this end may start and still be taken for one (TCP's largest window,
         * 2^30 bytes with window scaling, RFC 7323 2.3, is far more than any capture shows in flight): a segment of
         * another connection that shares the client's port starts anywhere in the 2^32 sequence space.
         */
        static final int SEQUENCE_SLACK = 1 << 26;

        /** This end's first sequence number after its SYN (its ISN + 1). */
        void begin(int afterSyn) {
            next = afterSyn;
        }

        /** Whether {@code seq} lies in this end's sequence space near where it is sending. */
        boolean near(int seq) {
            return Math.abs(seq - next) < SEQUENCE_SLACK;
        }

        void reset() {
            mss = -1;
            fin = false;
            next = 0;
            acked = false;
            ack = 0;
            largestAcked = 0;
            zeroWindow = false;
            hole = false;
            holeSeq = 0;
            holeLength = 0;
            holeIpPayload = 0;
            holeSentNanos = 0;
            holeRetransmissions = 0;
            holeSends = null;
            lostSends = null;
            lostRetransmissions = 0;
            lostLength = 0;
            lostIpPayload = 0;
            recovered = false;
            resegmented = false;
        }

        /** The MSS this end offered in its SYN or SYN-ACK, or -1. */
        public int mss() {
            return mss;
        }

        /** The largest segment (bytes of data) of this end that the other end acknowledged. */
        public int largestAcked() {
            return largestAcked;
        }

        /**
         * The segment of this end that went unacknowledged although it was sent again at least twice, while smaller
         * ones were acknowledged (pmtu-blackhole): its first transmission and retransmissions (each as first seen; the
         * copies on other interfaces are in {@link Established#kept}); empty when there is none.
         */
        public List<Sighting> lostSends() {
            return lostSends == null ? List.of() : Collections.unmodifiableList(lostSends);
        }

        /** How often {@link #lostSends}' segment was sent again (copies on other interfaces not counted). */
        public int lostRetransmissions() {
            return lostRetransmissions;
        }

        /** Bytes of data in {@link #lostSends}' segment, and its IP payload (TCP header and data). */
        public int lostLength() {
            return lostLength;
        }

        public int lostIpPayload() {
            return lostIpPayload;
        }

        /**
         * The segment of this end still unacknowledged when the connection was decided, if it was sent again: its first
         * transmission and retransmissions, each as first seen; empty when there is none.
         */
        public List<Sighting> unacknowledged() {
            return hole && holeRetransmissions > 0 ? Collections.unmodifiableList(holeSends) : List.of();
        }

        /** How often {@link #unacknowledged}'s segment was sent again, and its bytes of data. */
        public int unacknowledgedRetransmissions() {
            return hole ? holeRetransmissions : 0;
        }

        public int unacknowledgedLength() {
            return hole ? holeLength : 0;
        }

        /** A segment of this end was lost and acknowledged once sent again, or sent again smaller (PMTU discovery). */
        public boolean recovered() {
            return recovered || resegmented;
        }

        /** What {@link #data} saw: nothing to keep, the hole sent again, or a copy of that on another interface. */
        static final int NOTHING = 0;
        static final int RESENT = 1;
        static final int RESENT_COPY = 2;

        /** A data segment of this end, {@code len} bytes from {@code seq}: {@link #NOTHING}, {@link #RESENT} or {@link #RESENT_COPY}. */
        int data(Frame f, PacketView v, int seq, int len) {
            int end = seq + len;
            if (end - next > 0) {
                next = end;
                if (!hole && (!acked || end - ack > 0)) {
                    hole = true;
                    holeSeq = seq;
                    holeLength = len;
                    holeIpPayload = v.ipPayloadLength;
                    holeSentNanos = f.nanos;
                    holeRetransmissions = 0;
                    holeSends = null;
                    firstCapture = f.capture;
                    firstInterface = f.interfaceName;
                    firstFrame = f.number;
                    firstNanos = f.nanos;
                    firstIfIndex = v.ifIndex;
                    firstPacketType = v.packetType;
                    firstAck = v.ack;
                    firstWindow = v.window;
                    firstFlags = v.flags;
                    firstTtl = v.ttl;
                }
                return NOTHING;
            }
            if (!hole || seq != holeSeq) {
                return NOTHING; // a retransmission of another segment
            }
            if (f.nanos - holeSentNanos < HandshakeTracker.RETRANSMIT_GAP_NANOS) {
                return holeRetransmissions > 0 ? RESENT_COPY : NOTHING; // the same packet on another interface
            }
            if (len < holeLength) {
                resegmented = true; // sent again in smaller pieces: the sender lowered its segment size
                hole = false;
                return NOTHING;
            }
            holeRetransmissions++;
            holeSentNanos = f.nanos;
            if (holeSends == null) {
                holeSends = new ArrayList<>(4);
                holeSends.add(first(v));
            }
            return RESENT;
        }

        /**
         * The hole's first transmission as a {@link Sighting}: {@code again}, a retransmission of the same bytes, with the
         * first one's own fields put in for the moment (and back after).
         */
        private Sighting first(PacketView again) {
            Frame frame = new Frame();
            frame.capture = firstCapture;
            frame.interfaceName = firstInterface;
            frame.number = firstFrame;
            frame.nanos = firstNanos;
            int[] saved = {again.ifIndex, again.packetType, again.ack, again.window, again.flags, again.ttl};
            again.ifIndex = firstIfIndex;
            again.packetType = firstPacketType;
            again.ack = firstAck;
            again.window = firstWindow;
            again.flags = firstFlags;
            again.ttl = firstTtl;
            try {
                return new Sighting(frame, again);
            } finally {
                again.ifIndex = saved[0];
                again.packetType = saved[1];
                again.ack = saved[2];
                again.window = saved[3];
                again.flags = saved[4];
                again.ttl = saved[5];
            }
        }

        /** The other end acknowledged up to {@code ackNumber} and announced {@code window}. */
        void acknowledged(int ackNumber, int window) {
            if (!acked || ackNumber - ack > 0) {
                acked = true;
                ack = ackNumber;
            }
            if (hole && ack - (holeSeq + holeLength) >= 0) {
                largestAcked = Math.max(largestAcked, holeLength);
                recovered |= holeRetransmissions > 0;
                hole = false;
            } else if (hole && window == 0) {
                zeroWindow = true;
            }
        }

        /**
         * Called when the connection is decided: the hole, if it was sent again at least twice, never acknowledged,
         * larger than anything acknowledged, and the receiver never said it was full, is what {@link #lostSends} holds.
         */
        void settle(boolean smallerAcked) {
            if (hole && holeRetransmissions >= 2 && holeLength > largestAcked && smallerAcked && !zeroWindow) {
                lostSends = new ArrayList<>(holeSends);
                lostRetransmissions = holeRetransmissions;
                lostLength = holeLength;
                lostIpPayload = holeIpPayload;
            }
        }
    }

    void reset() {
        client.reset();
        server.reset();
        followed = false;
        following = false;
        evicted = false;
        lastNanos = 0;
        endNanos = 0;
        wrongSource = null;
        clientResetOther = null;
        serverReset = null;
        serverResetUnanswered = false;
        serverResetAtClient = false;
        clientReset = null;
        unreachable = null;
        unreachableAtClient = false;
        tooBig = null;
        kept = null;
    }

    /**
     * When the connection is decided: {@link HandshakeTracker#CONNECTION_LINGER_NANOS} after it ended (the copies of its
     * last packets on other interfaces in), or {@link HandshakeTracker#CONNECTION_IDLE_NANOS} after its last segment.
     */
    long due() {
        return endNanos != 0 ? endNanos + HandshakeTracker.CONNECTION_LINGER_NANOS
                : lastNanos + HandshakeTracker.CONNECTION_IDLE_NANOS;
    }

    /** The connection ended at {@code nanos} (a RST, or the second FIN), unless it had already. */
    void end(long nanos) {
        if (endNanos == 0) {
            endNanos = nanos;
        }
    }

    /** Keeps {@code s} among the connection's packets. */
    void keep(Sighting s) {
        if (kept == null) {
            kept = new ArrayList<>(4);
        }
        if (kept.size() < MAX_KEPT) {
            kept.add(s);
        }
    }

    /** Keeps a "fragmentation needed" / "packet too big" error, among the connection's packets too. */
    void tooBig(Sighting s) {
        if (tooBig == null) {
            tooBig = new ArrayList<>(2);
        }
        tooBig.add(s);
    }

    /** Keeps {@code s}, seen before some of the packets kept already, in its place in capture order. */
    void keepInOrder(Sighting s) {
        if (kept == null) {
            kept = new ArrayList<>(4);
        }
        if (kept.size() < MAX_KEPT) {
            int at = kept.size();
            while (at > 0 && kept.get(at - 1).nanos > s.nanos) {
                at--;
            }
            kept.add(at, s);
        }
    }

    /** Decides what the sides show, once the connection is over (ended, idle, or the capture ended). */
    void settle() {
        boolean anyAcked = client.largestAcked > 0 || server.largestAcked > 0;
        client.settle(anyAcked);
        server.settle(anyAcked);
    }

    /** The end whose segment went unacknowledged though sent again ({@link Side#lostSends}), the server's first; else null. */
    public Side lost() {
        if (server.lostSends != null) {
            return server;
        }
        return client.lostSends != null ? client : null;
    }

    public Side client() {
        return client;
    }

    public Side server() {
        return server;
    }

    public Sighting wrongSource() {
        return wrongSource;
    }

    public Sighting clientResetOther() {
        return clientResetOther;
    }

    public Sighting serverReset() {
        return serverReset;
    }

    /** The server's RST came while the client's data was outstanding and had been sent again (no answer but the RST). */
    public boolean serverResetUnanswered() {
        return serverResetUnanswered;
    }

    public Sighting clientReset() {
        return clientReset;
    }

    public Sighting unreachable() {
        return unreachable;
    }

    /** The ICMP "fragmentation needed" / "packet too big" errors quoting the connection's segments, each copy. */
    public List<Sighting> tooBig() {
        return tooBig == null ? List.of() : Collections.unmodifiableList(tooBig);
    }

    /** Every packet kept of the connection after its handshake, in capture order. */
    public List<Sighting> kept() {
        return kept == null ? List.of() : Collections.unmodifiableList(kept);
    }

    public boolean evicted() {
        return evicted;
    }

    /** When the last segment of the connection was seen. */
    public long lastNanos() {
        return lastNanos;
    }
}
