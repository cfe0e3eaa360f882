package io.pcapdiag.track;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.IcmpKind;
import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.decode.PacketView;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Pairs SYNs with their answers, and UDP datagrams and DNS queries with theirs (docs/design.md "Connection attempts"
 * and "DNS"): one tracker, one kind of exchange ({@link Attempt}). Time is capture time: an attempt is decided
 * {@link #FIRST_DECISION_NANOS} after its SYN (after its next retransmission is due, once it was retransmitted), a
 * UDP exchange {@link #UDP_DECISION_NANOS} after its last query, so late copies of its packets on other interfaces
 * still find it (a DNS query answered by what it dialed {@link #ANSWER_COPIES_NANOS} after the answer). The tables
 * are bounded together; the oldest exchange is evicted when they are full.
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
    /**
     * A DNS query with no answer is unanswered once the capture went on this long after it (docs/design.md): glibc's
     * resolver waits {@code timeout:5} before it asks again.
     */
    public static final long DNS_LINGER_NANOS = 5_000_000_000L;
    /** When a UDP exchange is decided: a second after {@link #DNS_LINGER_NANOS}, so that the re-send's answer is in. */
    static final long UDP_DECISION_NANOS = DNS_LINGER_NANOS + 1_000_000_000L;
    /** Two queries from one socket this close are sent together (glibc's A and AAAA): the race of dns-race-lost. */
    public static final long RACE_WINDOW_NANOS = 10_000_000L;
    /** NXDOMAIN answers a client's search list is looked for in, after its query was answered NOERROR. */
    static final long SEARCH_WINDOW_NANOS = 30_000_000_000L;
    /**
     * A DNS query answered by what it dialed is decided this long after the answer, once the answer's copies on other
     * interfaces are in ({@link #RETRANSMIT_GAP_NANOS}: sooner is the same packet seen again), rather than
     * {@link #UDP_DECISION_NANOS} after it was sent: held 6 s, a busy node's lookups would fill the heap.
     */
    static final long ANSWER_COPIES_NANOS = RETRANSMIT_GAP_NANOS;
    /** An exchange is first looked at this long after it opened, and again at most this often until it is due. */
    static final long EXCHANGE_LOOK_NANOS = 2 * RETRANSMIT_GAP_NANOS;
    /** How soon after a truncated answer a SYN to the DNS port is its retry over TCP. */
    static final long TCP_RETRY_NANOS = 500_000_000L;
    /** The DNS port (RFC 1035 4.2.1): a TCP SYN to it may retry a truncated answer. */
    static final int DNS_PORT = 53;
    /** The id a UDP exchange that is no DNS query is keyed by in {@link #udpTable}. */
    static final int NO_ID = -1;
    /** How far back from the newest exchange a truncated answer's query is looked for. */
    private static final int RECENT_SCAN_LIMIT = 64;
    /** How far back a seq-less ICMP quote (cut by a short snaplen) is matched by ports alone. */
    private static final int QUOTE_SCAN_LIMIT = 4096;

    /**
     * A followed connection with no segment for this long is decided (docs/design.md, "Established connections"): longer
     * than the first retransmissions of a segment take (Linux: 0.2 s doubling to 25 s in all), so a black hole is seen
     * out, yet a node's idle keep-alive connections do not pile up.
     */
    public static final long CONNECTION_IDLE_NANOS = 30_000_000_000L;
    /** A connection that ended (a RST, or both FINs) is decided this much later, once the copies of its last packets are in. */
    static final long CONNECTION_LINGER_NANOS = 1_000_000_000L;
    /** A followed connection is looked at again at most this often until it is due. */
    static final long CONNECTION_LOOK_NANOS = 1_000_000_000L;

    /** Decided attempts held for reuse, at most (about 220 bytes each, and the packets each kept until reused). */
    private static final int MAX_FREE = 4096;

    private final AttemptTable table = new AttemptTable();
    /** UDP exchanges, by (client address, client port, DNS id or {@link #NO_ID}). */
    private final AttemptTable udpTable = new AttemptTable();
    /** DNS queries over TCP, by (client address, client port, DNS id). */
    private final AttemptTable tcpDnsTable = new AttemptTable();
    /** The query each socket (client address and port) sent last, while it is open: its next query's race sibling. */
    private final java.util.HashMap<Socket, Attempt> lastQuery = new java.util.HashMap<>();

    private record Socket(long hi, long lo, int port) {
    }

    /** NXDOMAIN answers per client, for the search-list expansion of the names it resolves next. */
    private final SearchMisses searchMisses = new SearchMisses();
    /**
     * Decided attempts their sink did not hold, reused for the next SYNs: an attempt each new would be the tracker's
     * whole allocation, a young collection every few hundred thousand attempts (docs/performance.md).
     */
    private final Attempt[] free = new Attempt[MAX_FREE];
    private int freeCount;
    /**
     * Connection states no attempt holds, for the next connections followed, as {@link #free} is for attempts: an
     * attempt has one only while its connection is followed, or when the finding of its connection holds it.
     */
    private final Established[] freeEstablished = new Established[MAX_FREE];
    private int freeEstablishedCount;
    /** TCP attempts, in order of their next look (see {@link #expire}). */
    private final ArrayDeque<Attempt> queue = new ArrayDeque<>();
    /**
     * UDP exchanges and DNS queries (over UDP or TCP), the same way: their own queue, since most are decided within
     * {@link #EXCHANGE_LOOK_NANOS} and a TCP attempt at the head of a shared one would hold them for seconds.
     */
    private final ArrayDeque<Attempt> exchanges = new ArrayDeque<>();
    /** Connections followed after their handshake, by client address and port (docs/design.md, "Established connections"). */
    private final AttemptTable connections = AttemptTable.byClient();
    /**
     * Followed connections by client port: a segment whose source port no client of a followed connection uses is no
     * client's, and is not looked up as one (most of a node's segments come from a server's port, 80, 443, 8080, that
     * no client dials from); one whose destination port none uses is nobody's.
     */
    private final int[] clientPortUse = new int[65536];
    /** Followed connections whose handshake is decided, in order of their next look. */
    private final ArrayDeque<Attempt> followed = new ArrayDeque<>();
    /** Whether connections are followed after their handshake: every segment reaches the tracker (not so in live capture without --established). */
    private final boolean follow;
    /** The capture ended: what is still followed is decided as it stands. */
    private boolean finishing;
    private final TrackerSink sink;
    private final int maxOpen;
    private long clock = Long.MIN_VALUE;

    private long attempts;
    private long evicted;
    private long peakOpen;
    private long unmatchedAnswers;
    private long connectionsFollowed;
    private long connectionsEvicted;

    /** A tracker that follows connections after their handshake (every segment of the capture reaches it). */
    public HandshakeTracker(TrackerSink sink, int maxOpen) {
        this(sink, maxOpen, true);
    }

    /**
     * @param maxOpen how many exchanges may be open at once, and connections followed at once: past it the oldest
     *                is evicted (counted, never a finding)
     * @param follow  follow connections after their handshake; only where every segment reaches the tracker
     */
    public HandshakeTracker(TrackerSink sink, int maxOpen, boolean follow) {
        if (maxOpen < 1) {
            throw new IllegalArgumentException("maxOpen must be positive");
        }
        this.sink = sink;
        this.maxOpen = maxOpen;
        this.follow = follow;
    }

    /**
     * Whether {@link #observe} does more with {@code v} than move the clock: a UDP datagram, an ICMP error, and a TCP
     * segment: every one when the tracker follows connections ({@code follow}, as it was made), else those with SYN or
     * RST or a DNS message (a mid-connection segment then only tells the time). Static, so that the reading thread asks
     * it without reading the tracker, whose fields the tracker's thread writes on every packet.
     */
    public static boolean concerns(PacketView v, boolean follow) {
        return v.kind == PacketView.Kind.ICMP_ERROR || v.kind == PacketView.Kind.UDP
                || v.kind == PacketView.Kind.TCP && (follow || (v.flags & (PacketView.SYN | PacketView.RST)) != 0 || v.dns);
    }

    /** Feeds one decoded packet. */
    public void observe(Frame f, PacketView v) {
        advanceClock(f.nanos);
        if (!concerns(v, follow)) {
            return;
        }
        if (v.kind == PacketView.Kind.TCP) {
            int flags = v.flags;
            if (!follow && (flags & (PacketView.SYN | PacketView.RST)) == 0 && !v.dns) {
                return;
            }
            if ((flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == PacketView.SYN) {
                syn(f, v);
            } else if ((flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == (PacketView.SYN | PacketView.ACK)) {
                synAck(f, v);
            } else if ((flags & PacketView.RST) != 0) {
                boolean answers = reset(f, v);
                if (follow) {
                    answers |= segment(f, v); // a followed connection's RST, whether or not it also answers a handshake
                }
                if (!answers && (flags & PacketView.ACK) != 0) {
                    unmatched();
                }
            } else {
                if (v.dns && v.dnsId >= 0) {
                    dns(f, v, tcpDnsTable);
                }
                if (follow) {
                    segment(f, v);
                }
            }
        } else if (v.kind == PacketView.Kind.UDP) {
            if (v.dns && v.dnsId >= 0) {
                dns(f, v, udpTable);
            } else if (!v.dns) {
                datagram(f, v);
            }
            // A DNS message cut before its id: to or from the DNS port, but no telling which query.
        } else if (v.kind == PacketView.Kind.ICMP_ERROR) {
            if (v.quotedProtocol == 6 && v.quotedHasPorts) {
                icmp(f, v);
            } else if (v.quotedProtocol == 17 && v.quotedHasPorts) {
                udpIcmp(f, v);
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
            if (v.dstPort == DNS_PORT) {
                retryOverTcp(f, v);
            }
            if (open() >= maxOpen) {
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
            peakOpen = Math.max(peakOpen, open());
            return;
        }
        Sighting seen = keep(a, f, v);
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
                if (follow) {
                    startFollowing(a, f, v);
                }
            } else if (a.synAck != null) {
                a.see(new Sighting(f, v)); // a delayed answer seen again, on another interface
            }
        } else {
            Sighting seen = keep(a, f, v);
            if (a.otherSynAck == null) {
                a.otherSynAck = seen;
            }
        }
    }

    /** A RST: true when it answers a SYN, or a SYN-ACK, of an attempt the tracker holds. */
    private boolean reset(Frame f, PacketView v) {
        // A RST answering the SYN carries ACK = ISN+1 (RFC 9293 3.10.7.1, "reset generation").
        if ((v.flags & PacketView.ACK) != 0) {
            Attempt a = table.get(v.dstHi, v.dstLo, v.dstPort, v.ack - 1);
            if (a != null) {
                Sighting seen = keep(a, f, v);
                if (a.reset == null || (!a.isTarget(a.reset.srcHi, a.reset.srcLo, a.reset.srcPort)
                        && a.isTarget(v.srcHi, v.srcLo, v.srcPort))) {
                    a.reset = seen;
                }
                return true;
            }
        }
        // The client refusing a SYN-ACK it has no socket for answers with SEQ = the SYN-ACK's ACK = ISN+1.
        Attempt a = table.get(v.srcHi, v.srcLo, v.srcPort, v.seq - 1);
        if (a != null) {
            Sighting seen = keep(a, f, v);
            if (a.clientReset == null) {
                a.clientReset = seen;
            }
            return true;
        }
        return false;
    }

    private void icmp(Frame f, PacketView v) {
        Attempt a = v.quotedHasSeq
                ? table.get(v.quotedSrcHi, v.quotedSrcLo, v.quotedSrcPort, v.quotedSeq)
                : byPorts(v, false);
        if (a == null) {
            if (!(follow && quotedSegment(f, v))) {
                unmatched();
            }
            return;
        }
        Sighting seen = keep(a, f, v);
        if (a.icmp == null) {
            a.icmp = seen;
        }
    }

    /**
     * The newest open attempt from the quoted client:port to the quoted destination address:port (its
     * target, or the destination of its DNAT'ed copy). The address matters: Linux shares an ephemeral port
     * between connections to different destinations.
     */
    private Attempt byPorts(PacketView v, boolean udp) {
        Iterator<Attempt> it = (udp ? exchanges : queue).descendingIterator();
        for (int i = 0; i < QUOTE_SCAN_LIMIT && it.hasNext(); i++) {
            Attempt a = it.next();
            if (a.udp == udp && (udp || a.query == null) && a.clientPort == v.quotedSrcPort && a.clientLo == v.quotedSrcLo && a.clientHi == v.quotedSrcHi
                    && (a.isTarget(v.quotedDstHi, v.quotedDstLo, v.quotedDstPort) || (a.natCopy != null
                            && a.natCopy.dstPort == v.quotedDstPort && a.natCopy.dstLo == v.quotedDstLo
                            && a.natCopy.dstHi == v.quotedDstHi))) {
                return a;
            }
        }
        return null;
    }

    /**
     * The dialed address answered {@code a}'s SYN with the SYN-ACK in {@code v}: the connection is followed from here
     * (docs/design.md, "Established connections"). A connection still followed from the same client port is over: the
     * port was reused.
     */
    private void startFollowing(Attempt a, Frame f, PacketView v) {
        Attempt old = connections.get(a.clientHi, a.clientLo, a.clientPort);
        if (old != null) {
            stopFollowing(old); // decided at its next look, or with its handshake
            old.established.end(f.nanos);
        }
        if (connections.size() >= maxOpen) {
            evictOldestConnection();
        }
        Established e;
        if (freeEstablishedCount > 0) {
            e = freeEstablished[--freeEstablishedCount];
            freeEstablished[freeEstablishedCount] = null;
        } else {
            e = new Established();
        }
        a.established = e;
        e.reset();
        e.followed = true;
        e.following = true;
        e.lastNanos = f.nanos;
        e.client.mss = a.synMss;
        e.client.begin(a.isn + 1);
        e.server.mss = v.tcpMss;
        e.server.begin(v.seq + 1);
        e.client.acknowledged(v.ack, v.window);
        connections.put(a);
        clientPortUse[a.clientPort]++;
    }

    /** The connection of {@code a} is no longer followed (its entry goes; what it saw stays with the attempt). */
    private void stopFollowing(Attempt a) {
        if (a.established.following) {
            connections.remove(a);
            clientPortUse[a.clientPort]--;
            a.established.following = false;
        }
    }

    /** Makes room in the full table of followed connections: the one looked at longest ago goes, counted. */
    private void evictOldestConnection() {
        Attempt oldest = followed.pollFirst();
        if (oldest == null) {
            return; // every followed connection still awaits its handshake's decision: bounded by maxOpen already
        }
        oldest.established.evicted = true;
        connectionsEvicted++;
        connectionDecided(oldest);
    }

    /**
     * A TCP segment that is no SYN: true when it belongs to a followed connection, from its client (to what it dialed,
     * its backend, or any address, in the client's sequence space) or to it (in the server's).
     */
    private boolean segment(Frame f, PacketView v) {
        Attempt a = clientPortUse[v.srcPort] == 0 ? null : connections.get(v.srcHi, v.srcLo, v.srcPort);
        if (a != null && a.established.client.near(v.seq)) {
            fromClient(a, a.established, f, v);
            return true;
        }
        a = clientPortUse[v.dstPort] == 0 ? null : connections.get(v.dstHi, v.dstLo, v.dstPort);
        if (a != null && a.established.server.near(v.seq)) {
            toClient(a, a.established, f, v);
            return true;
        }
        return false;
    }

    private void fromClient(Attempt a, Established e, Frame f, PacketView v) {
        e.lastNanos = Math.max(e.lastNanos, f.nanos);
        if ((v.flags & PacketView.RST) != 0) {
            Sighting w = e.wrongSource;
            if (w != null && v.dstPort == w.srcPort && v.dstLo == w.srcLo && v.dstHi == w.srcHi) {
                // The client refusing the segment that came from the wrong address: its connection lives on.
                if (e.clientResetOther == null) {
                    e.clientResetOther = keep(e, f, v);
                }
                return;
            }
            if (e.clientReset == null) {
                e.clientReset = keep(e, f, v);
            }
            e.end(f.nanos);
            return;
        }
        carries(e, e.client, e.server, f, v);
    }

    private void toClient(Attempt a, Established e, Frame f, PacketView v) {
        e.lastNanos = Math.max(e.lastNanos, f.nanos);
        boolean dialed = a.isTarget(v.srcHi, v.srcLo, v.srcPort);
        if (!dialed && e.wrongSource == null && whereTheClientIs(a, f, v)) {
            // Where the client itself receives it, a segment of the connection from another address than the one it
            // dialed: the reply skipped reverse NAT (elsewhere on the node the backend's own address is normal).
            e.wrongSource = keep(e, f, v);
        }
        if ((v.flags & PacketView.RST) != 0) {
            boolean here = whereTheClientIs(a, f, v);
            if (e.serverReset == null || here && !e.serverResetAtClient) {
                // The first RST, or its copy where the client receives it (from the Service address, reverse-NAT'ed):
                // the one every view that holds the client's interface agrees on.
                Sighting seen = keep(e, f, v);
                if (e.serverReset == null) {
                    e.serverResetUnanswered = e.client.hole && e.client.holeRetransmissions > 0;
                }
                e.serverReset = seen;
                e.serverResetAtClient = here;
            }
            e.end(f.nanos);
            return;
        }
        carries(e, e.server, e.client, f, v);
    }

    /**
     * What a segment of {@code sender} (no RST) tells, whichever end it is: how far it acknowledges the {@code other}
     * end's data, its own data (the hole sent again is kept, with its first transmission), and its FIN.
     */
    private static void carries(Established e, Established.Side sender, Established.Side other, Frame f, PacketView v) {
        if ((v.flags & PacketView.ACK) != 0) {
            other.acknowledged(v.ack, v.window);
        }
        if (v.tcpPayloadLength > 0) {
            int seen = sender.data(f, v, v.seq, v.tcpPayloadLength);
            if (seen == Established.Side.RESENT) {
                if (sender.holeSends.size() == 1) {
                    e.keepInOrder(sender.holeSends.get(0)); // its first transmission, made a Sighting only now
                }
                sender.holeSends.add(keep(e, f, v));
            } else if (seen == Established.Side.RESENT_COPY) {
                keep(e, f, v); // where the retransmission went next: the lost segment's path
            }
        }
        if ((v.flags & PacketView.FIN) != 0) {
            sender.fin = true;
            if (other.fin) {
                e.end(f.nanos);
            }
        }
    }

    /**
     * Whether {@code v} was captured where {@code a}'s first SYN was: the same capture and interface (a pod's eth0, or
     * its veth in a node's {@code -i any}), where the client sends and receives its packets as they are.
     */
    private static boolean whereTheClientIs(Attempt a, Frame f, PacketView v) {
        return f.capture == a.synCapture && v.ifIndex == a.synIfIndex
                && java.util.Objects.equals(f.interfaceName, a.synInterface);
    }

    /**
     * An ICMP error quoting a segment of a followed connection, the client's or the server's: true when it does.
     * "Fragmentation needed" and "packet too big" ({@link PacketView#icmpMtu}) are kept, each copy (where each was seen
     * tells whether it reached the sender); of the others the first.
     */
    private boolean quotedSegment(Frame f, PacketView v) {
        Attempt a = connections.get(v.quotedSrcHi, v.quotedSrcLo, v.quotedSrcPort);
        boolean fromClient = a != null && (!v.quotedHasSeq || a.established.client.near(v.quotedSeq));
        if (!fromClient) {
            a = connections.get(v.quotedDstHi, v.quotedDstLo, v.quotedDstPort);
            if (a == null || v.quotedHasSeq && !a.established.server.near(v.quotedSeq)) {
                return false;
            }
        }
        Established e = a.established;
        Sighting seen = keep(e, f, v);
        if (v.icmpMtu >= 0) {
            e.tooBig(seen);
        } else if (fromClient) {
            boolean here = whereTheClientIs(a, f, v);
            if (e.unreachable == null || here && !e.unreachableAtClient) {
                e.unreachable = seen; // the first, or its copy where the client receives it, as for a RST
                e.unreachableAtClient = here;
            }
        }
        return true;
    }

    /** Keeps the packet in {@code f} and {@code v} among {@code e}'s, and returns it. */
    private static Sighting keep(Established e, Frame f, PacketView v) {
        Sighting seen = new Sighting(f, v);
        e.keep(seen);
        return seen;
    }

    /**
     * {@code a}'s connection is decided: it ended a while ago, was idle, was evicted, or the capture ended. The sink
     * hears of it ({@link TrackerSink#followed}); a connection state it does not hold is reused, and so is an attempt
     * that neither it nor the handshake's finding holds.
     */
    private void connectionDecided(Attempt a) {
        stopFollowing(a);
        a.established.settle();
        connectionsFollowed++;
        if (sink.followed(a)) {
            return;
        }
        if (freeEstablishedCount < MAX_FREE) {
            freeEstablished[freeEstablishedCount++] = a.established;
        }
        a.established = null;
        if (!a.heldByHandshake && freeCount < MAX_FREE) {
            free[freeCount++] = a;
        }
    }

    private void expire(long now) {
        expire(queue, now, LINGER_NANOS);
        expire(exchanges, now, EXCHANGE_LOOK_NANOS);
        expire(followed, now, CONNECTION_LOOK_NANOS);
    }

    /**
     * Decides the attempts at the head of {@code q} that are due. One that is not due at its look (retransmitted since
     * it was queued, or not answered yet) is requeued, to be looked at again within {@code lookAgain} rather than when
     * it is due, which may be minutes away: at the head it would hold back every attempt queued behind it until then.
     */
    private void expire(ArrayDeque<Attempt> q, long now, long lookAgain) {
        while (!q.isEmpty()) {
            Attempt head = q.peekFirst();
            long due = head.decisionDue();
            if (due <= now) {
                q.pollFirst();
                decide(head, now);
            } else if (head.queuedExpiry <= now) {
                q.pollFirst();
                head.queuedExpiry = Math.min(due, now + lookAgain);
                q.addLast(head);
            } else {
                return;
            }
        }
    }

    /**
     * A SYN to the DNS port: the client asking the newest truncated answer's question again over TCP (RFC 7766 5),
     * which a resolver does at once.
     */
    private void retryOverTcp(Frame f, PacketView v) {
        Iterator<Attempt> it = exchanges.descendingIterator();
        for (int i = 0; i < RECENT_SCAN_LIMIT && it.hasNext(); i++) {
            Attempt q = it.next();
            if (q.truncatedAnswer && !q.retriedOverTcp && f.nanos - q.answerNanos <= TCP_RETRY_NANOS
                    && q.clientIs(v.srcHi, v.srcLo) && (q.targetLo == v.dstLo && q.targetHi == v.dstHi
                    || q.natCopy != null && q.natCopy.dstLo == v.dstLo && q.natCopy.dstHi == v.dstHi)) {
                q.retriedOverTcp = true;
                return;
            }
        }
    }

    /** A DNS message over UDP or TCP ({@code queries} their table): a query opens or re-sends a query, a response answers one. */
    private void dns(Frame f, PacketView v, AttemptTable queries) {
        if (!v.dnsResponse()) {
            Attempt a = queries.get(v.srcHi, v.srcLo, v.srcPort, v.dnsId);
            if (a != null && a.answeredBy(v)) {
                sent(a, f, v);
                return;
            }
            if (a != null) {
                // The socket reused the id for another question: the first query is over.
                exchanges.remove(a);
                decide(a, clock);
            }
            Attempt q = open(f, v, v.dnsId, queries);
            q.query = new DnsQuery(v.dnsId, v.dnsQname, v.dnsQtype);
            linkSibling(q);
            return;
        }
        if (v.kind == PacketView.Kind.UDP) {
            searchMisses.server(v.srcHi, v.srcLo); // a resolver others ask (CoreDNS, NodeLocal DNSCache) answers over UDP
        }
        Attempt a = queries.get(v.dstHi, v.dstLo, v.dstPort, v.dnsId);
        if (a == null || !a.answeredBy(v)) {
            unmatched();
            return;
        }
        answer(a, f, v);
    }

    /**
     * A UDP datagram that is no DNS message: it answers the exchange to its destination's port when it comes from what
     * that exchange dialed or from where DNAT sent it (the reply that skipped reverse NAT); from anywhere else it is no
     * answer (a port that talks to many peers, as memberlist's gossip does, is not bypassed by each of them), and
     * otherwise it is an exchange of its own.
     */
    private void datagram(Frame f, PacketView v) {
        Attempt a = udpTable.get(v.dstHi, v.dstLo, v.dstPort, NO_ID);
        if (a != null && (a.isTarget(v.srcHi, v.srcLo, v.srcPort) || a.natCopy != null && a.natCopy.dstPort == v.srcPort
                && a.natCopy.dstLo == v.srcLo && a.natCopy.dstHi == v.srcHi)) {
            answer(a, f, v);
            return;
        }
        a = udpTable.get(v.srcHi, v.srcLo, v.srcPort, NO_ID);
        if (a != null) {
            sent(a, f, v);
            return;
        }
        open(f, v, NO_ID, udpTable);
    }

    /** Opens a UDP exchange or a DNS query (over UDP or TCP) in {@code into}, keyed by {@code id}. */
    private Attempt open(Frame f, PacketView v, int id, AttemptTable into) {
        return open(f, v, id, into, false);
    }

    /** The same; {@code fromQuote}: an exchange known from the ICMP error in {@code v} alone ({@link Attempt#startFromQuote}). */
    private Attempt open(Frame f, PacketView v, int id, AttemptTable into, boolean fromQuote) {
        if (open() >= maxOpen) {
            evictOldest();
        }
        Attempt a = new Attempt(f, v);
        if (fromQuote) {
            a.startFromQuote(f, v);
            a.icmp = keep(a, f, v);
        }
        a.isn = id;
        a.expiresAt = f.nanos + UDP_DECISION_NANOS;
        a.queuedExpiry = f.nanos + EXCHANGE_LOOK_NANOS;
        into.put(a);
        exchanges.addLast(a);
        attempts++;
        peakOpen = Math.max(peakOpen, open());
        return a;
    }

    /** Pairs a new query with the one its socket sent just before, within {@link #RACE_WINDOW_NANOS}. */
    private void linkSibling(Attempt q) {
        Attempt p = lastQuery.put(new Socket(q.clientHi, q.clientLo, q.clientPort), q);
        if (p != null && p.sibling == null && q.synNanos - p.synNanos <= RACE_WINDOW_NANOS && p.synNanos <= q.synNanos) {
            p.sibling = q;
            q.sibling = p;
        }
    }

    /** A datagram of exchange {@code a} from its client again: a copy, its DNAT'ed copy, or a re-sent query. */
    private void sent(Attempt a, Frame f, PacketView v) {
        boolean first = f.nanos - a.synNanos < RETRANSMIT_GAP_NANOS;
        if (a.query == null && !first) {
            return; // a later datagram of the same flow: the first one's copies are the exchange's path
        }
        Sighting seen = keep(a, f, v);
        if (!a.isTarget(v.dstHi, v.dstLo, v.dstPort)) {
            if (a.natCopy == null) {
                a.natCopy = seen;
            }
        } else if (a.query != null && f.nanos - a.lastSynNanos >= RETRANSMIT_GAP_NANOS) {
            if (a.retransmissions == 0) {
                a.firstResendNanos = f.nanos;
            }
            a.retransmissions++;
            a.lastSynNanos = f.nanos;
            a.expiresAt = Math.max(a.expiresAt, f.nanos + UDP_DECISION_NANOS);
        }
    }

    /** A datagram to exchange {@code a}'s client port: from the dialed address an answer, from any other a bypass. */
    private void answer(Attempt a, Frame f, PacketView v) {
        if (a.query == null && a.answeredByTarget) {
            return; // a later datagram of an answered flow: the exchange is decided by its first answer
        }
        Sighting seen = keep(a, f, v);
        if (a.isTarget(v.srcHi, v.srcLo, v.srcPort)) {
            if (!a.answeredByTarget) {
                a.answeredByTarget = true;
                a.retransmissionsBeforeAnswer = a.retransmissions;
                a.answeredSynNanos = a.lastSynNanos;
                a.answerNanos = f.nanos;
                a.synAck = seen;
                if (a.query != null) {
                    a.truncatedAnswer = (v.dnsFlags & 0x0200) != 0;
                    searchMisses.answered(a, v.dnsRcode);
                }
            }
        } else {
            a.lastBypassNanos = f.nanos;
            if (a.otherSynAck == null) {
                a.otherSynAck = seen;
            }
        }
    }

    /**
     * An ICMP error quoting a UDP datagram: it rejects the newest exchange from the quoted client port to the quoted
     * destination; or, quoting a DNS answer to a client, the client refusing an answer no socket of it expects.
     */
    private void udpIcmp(Frame f, PacketView v) {
        Attempt a = byPorts(v, true);
        if (a != null) {
            Sighting seen = keep(a, f, v);
            if (a.icmp == null) {
                a.icmp = seen;
            }
            return;
        }
        Attempt q = refusedAnswer(v);
        if (q != null) {
            Sighting seen = keep(q, f, v);
            if (q.clientReset == null) {
                q.clientReset = seen;
            }
            return;
        }
        if (!IcmpTable.kind(v.ipVersion, v.icmpType, v.icmpCode).aboutThePath()) {
            // The datagram it quotes is not in the capture (live keeps ICMP errors, not every datagram): the quote
            // says which exchange it rejects.
            Attempt same = udpTable.get(v.quotedSrcHi, v.quotedSrcLo, v.quotedSrcPort, NO_ID);
            if (same != null && same.quoteOnly && f.nanos - same.synNanos < RETRANSMIT_GAP_NANOS) {
                // The same error again after conntrack reverse-NATed it on its way to the client: its quote names what
                // the client dialed (the Service address the error now comes from), the first one where DNAT sent it.
                keep(same, f, v);
                if (v.srcLo == v.quotedDstLo && v.srcHi == v.quotedDstHi) {
                    same.quotedDnat = same.target();
                    same.targetHi = v.quotedDstHi;
                    same.targetLo = v.quotedDstLo;
                    same.targetPort = v.quotedDstPort;
                }
                return;
            }
            open(f, v, NO_ID, udpTable, true);
            return;
        }
        unmatched();
    }

    /**
     * The open exchange whose client is the quote's destination and whose bypassing answer the quote is: of the
     * socket's queries answered so, the one answered last (a client refuses an answer at once; the queue's order is
     * not the answers', since a query looked at again goes back to its tail).
     */
    private Attempt refusedAnswer(PacketView v) {
        Iterator<Attempt> it = exchanges.descendingIterator();
        Attempt best = null;
        for (int i = 0; i < QUOTE_SCAN_LIMIT && it.hasNext(); i++) {
            Attempt a = it.next();
            Sighting other = a.otherSynAck;
            if (a.udp && other != null && a.clientPort == v.quotedDstPort && a.clientIs(v.quotedDstHi, v.quotedDstLo)
                    && other.srcPort == v.quotedSrcPort && other.srcLo == v.quotedSrcLo && other.srcHi == v.quotedSrcHi
                    && (best == null || a.lastBypassNanos > best.lastBypassNanos)) {
                best = a;
            }
        }
        return best;
    }

    /** Keeps the packet in {@code f} and {@code v} as one of {@code a}'s frames, and returns it. */
    private static Sighting keep(Attempt a, Frame f, PacketView v) {
        Sighting seen = new Sighting(f, v);
        a.see(seen);
        return seen;
    }

    private void evictOldest() {
        Attempt tcp = queue.peekFirst();
        Attempt exchange = exchanges.peekFirst();
        Attempt oldest = exchange == null || tcp != null && tcp.synNanos <= exchange.synNanos
                ? queue.pollFirst() : exchanges.pollFirst();
        oldest.evicted = true;
        evicted++;
        decide(oldest, clock);
    }

    /**
     * Decides {@code a}: its handshake (or UDP exchange), and once that is decided, the connection followed after it.
     * A connection still going on when its handshake is decided stays followed, whether or not the sink holds the
     * attempt (only its {@link Established} state changes from then on); an attempt held either time is never reused.
     */
    private void decide(Attempt a, long now) {
        if (a.outcome != null) {
            connectionDecided(a);
            return;
        }
        (a.udp ? udpTable : a.query != null ? tcpDnsTable : table).remove(a);
        if (a.query != null) {
            lastQuery.remove(new Socket(a.clientHi, a.clientLo, a.clientPort), a);
        }
        a.outcome = outcomeOf(a, now);
        boolean held = sink.decided(a);
        Established e = a.established;
        if (e != null && e.followed) {
            a.heldByHandshake = held;
            if (finishing || !e.following || e.due() <= now) {
                connectionDecided(a);
            } else {
                a.queuedExpiry = Math.min(e.due(), now + CONNECTION_LOOK_NANOS);
                followed.addLast(a);
            }
            return;
        }
        // A UDP exchange or DNS query is never reused: a query's sibling stays the query it was.
        if (!held && !a.exchange() && freeCount < MAX_FREE) {
            free[freeCount++] = a;
        }
    }

    static Outcome outcomeOf(Attempt a, long now) {
        if (a.answeredByTarget) {
            return Outcome.ANSWERED;
        }
        // A datagram that is no DNS message carries nothing that ties a reply to it (a SYN-ACK acknowledges the ISN, a
        // DNS answer repeats id and question): a reply from elsewhere is a bypass only when the client's socket refused
        // it, as a connected socket does; an unconnected one (gossip to many peers) takes it.
        if (a.otherSynAck != null && (a.query != null || !a.udp || a.clientReset != null)) {
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
        long linger = a.exchange() ? DNS_LINGER_NANOS : LINGER_NANOS;
        return a.retransmissions > 0 || now - a.synNanos >= linger ? Outcome.UNANSWERED : Outcome.PENDING;
    }

    /** The capture ended: decide every open attempt, as of the last packet's time. */
    public void finish() {
        finishing = true;
        while (!queue.isEmpty()) {
            decide(queue.pollFirst(), clock);
        }
        while (!exchanges.isEmpty()) {
            decide(exchanges.pollFirst(), clock);
        }
        while (!followed.isEmpty()) {
            connectionDecided(followed.pollFirst());
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
        return table.size() + udpTable.size() + tcpDnsTable.size();
    }

    private void unmatched() {
        unmatchedAnswers++;
        sink.unmatchedAnswer();
    }

    /** Connections followed after their handshake and decided (evicted ones included). */
    public long connectionsFollowed() {
        return connectionsFollowed;
    }

    /** Followed connections pushed out of the full table before they ended. */
    public long connectionsEvicted() {
        return connectionsEvicted;
    }

    /** Whether connections are followed after their handshake. */
    public boolean follows() {
        return follow;
    }

    public long unmatchedAnswers() {
        return unmatchedAnswers;
    }

    public int maxOpen() {
        return maxOpen;
    }
}
