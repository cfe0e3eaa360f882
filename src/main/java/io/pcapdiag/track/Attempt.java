package io.pcapdiag.track;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.TimeOrder;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.IcmpKind;
import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.decode.PacketView;
import java.util.ArrayList;
import java.util.List;

/**
 * One exchange the tracker decides (docs/design.md, "Connection attempts" and "DNS"). A TCP connection attempt:
 * identified by (client address, client port, ISN); retransmissions, copies of the SYN on other interfaces and its
 * DNAT'ed copies are this same attempt. A UDP exchange: (client address, client port, dialed address:port), its
 * DNAT'ed copy the same exchange; a DNS query is a UDP exchange to a DNS port plus its transaction id and question
 * ({@link #query}), its re-sends the same query. For a UDP exchange the names of the TCP fields stand for their UDP
 * twins: the "SYN" is the first datagram (or query), a "retransmission" a re-sent query, the "SYN-ACK" the answer.
 */
public final class Attempt {
    long clientHi;
    long clientLo;
    int clientPort;
    int isn;
    /** What the client dialed: the destination of the first sighting of the SYN (before any NAT). */
    long targetHi;
    long targetLo;
    int targetPort;

    // The first sighting of the SYN, held inline: every attempt has one, and a Sighting object per attempt
    // would nearly double what an open attempt costs (a SYN flood holds hundreds of thousands of them).
    Capture synCapture;
    String synInterface;
    int synIfIndex;
    int synPacketType;
    long synFrame;
    long synNanos;
    int ipVersion;
    int synTtl;
    int synFlags;
    /** The first segment's sequence and acknowledgment numbers (a SYN's are the ISN and 0; a DNS query over TCP's its own). */
    int synSeq;
    int synAckNumber;
    /** The first query's DNS flags, when it is one. */
    int synDnsFlags;
    int synWindow;
    int synLength;
    /** The MSS option of the first SYN, else -1. */
    int synMss;
    boolean synHasSrcMac;
    boolean synHasDstMac;
    long synSrcMac;
    long synDstMac;
    /** The tunnel the first SYN came in, or null. */
    Tunnel synTunnel;

    /**
     * A UDP exchange (then {@link #isn} is the DNS transaction id, or -1 for a datagram that is no DNS query). A DNS
     * query over TCP is no UDP exchange but has a {@link #query} (its isn the id too): the TCP connection that carries
     * it is an attempt of its own.
     */
    boolean udp;
    /** A DNS query's id and question, or null. */
    DnsQuery query;
    /**
     * A UDP exchange known only from an ICMP error quoting its datagram (live keeps ICMP errors, not every datagram):
     * its client, port and target are the quote's, its first "sighting" is the ICMP error's time and place, and it has
     * no packet of its own: {@link #frames()} and the evidence leave it out.
     */
    boolean quoteOnly;
    /** A quote-known exchange seen on both sides of NAT: where the first error's quote says DNAT sent the datagram. */
    Endpoint quotedDnat;
    /** A DNS query: its answer from the dialed address had TC set, and whether the client then dialed it over TCP. */
    boolean truncatedAnswer;
    boolean retriedOverTcp;
    /**
     * A DNS query: the other query sent from the same socket within {@link HandshakeTracker#RACE_WINDOW_NANOS}
     * (glibc's parallel A and AAAA), or null. UDP exchanges are never reused, so it stays what it was.
     */
    Attempt sibling;
    /** A DNS query answered NOERROR: NXDOMAIN answers for its name with a search suffix appended, and the first's send. */
    int searchMisses;
    long searchFirstNanos;

    long lastSynNanos;
    /** A DNS query: when it was first sent again. */
    long firstResendNanos;
    int retransmissions;
    /** The first DNAT'ed copy of the SYN (same client, port and ISN, other destination), if seen. */
    Sighting natCopy;
    boolean answeredByTarget;
    /** SYN retransmissions the client had sent when the dialed address first answered. */
    int retransmissionsBeforeAnswer;
    /** The SYN (first or a retransmission) the dialed address answered, by capture time. */
    long answeredSynNanos;
    /** When the dialed address's first SYN-ACK was seen. */
    long answerNanos;
    /** The dialed address's SYN-ACK, kept only when it came after a retransmission (a delayed connect). */
    Sighting synAck;
    Sighting otherSynAck;
    /** A UDP exchange: when the last answer from elsewhere than the dialed address came (a re-sent query's too). */
    long lastBypassNanos;
    Sighting reset;
    Sighting icmp;
    /** The client's RST to a SYN-ACK it had no socket for (seq = ISN+1). */
    Sighting clientReset;
    /**
     * Every later packet of the attempt, in capture order: the SYN again (on another interface, after DNAT,
     * retransmitted) and its answers. Null until there is one (most attempts are one SYN and one SYN-ACK,
     * and an answer at once is not kept); at most {@link #MAX_FRAMES}, the rest not kept.
     */
    ArrayList<Sighting> frames;
    /** Later packets kept per attempt: a path across a node and a few retransmissions. */
    static final int MAX_FRAMES = 32;
    boolean evicted;
    Outcome outcome;
    /** Capture time after which the attempt is decided; pushed back by each retransmission. */
    long expiresAt;
    long queuedExpiry;
    /**
     * What the tracker follows of the connection once the dialed address answered it (docs/design.md, "Established
     * connections"): while it is followed, and after it was decided when the sink held the attempt then; else null. The
     * tracker reuses one the sink did not hold for the next connection it follows.
     */
    Established established;
    /** The sink held the attempt when its handshake was decided: it is never reused, whatever its connection's end. */
    boolean heldByHandshake;

    /** A new attempt from the first sighting of its SYN. */
    Attempt(Frame f, PacketView v) {
        start(f, v);
    }

    /**
     * Makes this the attempt the SYN in {@code f} and {@code v} opens, every field as a new one has it: the tracker
     * reuses a decided attempt that its sink did not hold on to ({@link TrackerSink#decided}).
     */
    void start(Frame f, PacketView v) {
        clientHi = v.srcHi;
        clientLo = v.srcLo;
        clientPort = v.srcPort;
        isn = v.seq;
        targetHi = v.dstHi;
        targetLo = v.dstLo;
        targetPort = v.dstPort;
        synCapture = f.capture;
        synInterface = f.interfaceName;
        synIfIndex = v.ifIndex;
        synPacketType = v.packetType;
        synFrame = f.number;
        synNanos = f.nanos;
        ipVersion = v.ipVersion;
        synTtl = v.ttl;
        udp = v.kind == PacketView.Kind.UDP;
        synFlags = udp ? 0 : v.flags;
        synDnsFlags = v.dns ? v.dnsFlags : 0;
        synSeq = udp ? 0 : v.seq;
        synAckNumber = udp ? 0 : v.ack;
        synWindow = udp ? 0 : v.window;
        synLength = udp ? Math.max(0, v.ipPayloadLength - 8) : v.tcpPayloadLength;
        synMss = udp ? -1 : v.tcpMss;
        heldByHandshake = false;
        query = null;
        quoteOnly = false;
        quotedDnat = null;
        truncatedAnswer = false;
        retriedOverTcp = false;
        sibling = null;
        searchMisses = 0;
        searchFirstNanos = 0;
        synHasSrcMac = v.hasSrcMac;
        synHasDstMac = v.hasDstMac;
        synSrcMac = v.srcMac;
        synDstMac = v.dstMac;
        synTunnel = Tunnel.of(v);
        lastSynNanos = f.nanos;
        retransmissions = 0;
        firstResendNanos = 0;
        natCopy = null;
        answeredByTarget = false;
        retransmissionsBeforeAnswer = 0;
        answeredSynNanos = 0;
        answerNanos = 0;
        synAck = null;
        otherSynAck = null;
        lastBypassNanos = 0;
        reset = null;
        icmp = null;
        clientReset = null;
        frames = null;
        evicted = false;
        outcome = null;
        expiresAt = 0;
        queuedExpiry = 0;
    }

    /**
     * The connection after its handshake, when the tracker followed it (the dialed address answered the SYN, and live
     * capture sees every segment); else null. Not null when its connection is decided ({@link TrackerSink#followed}),
     * nor after it if the sink held the attempt then.
     */
    public Established established() {
        return established != null && established.followed ? established : null;
    }

    /** Whether a DNS response with this question answers this query (see {@link DnsQuery#answeredBy}). */
    boolean answeredBy(PacketView v) {
        return query != null && query.answeredBy(v.dnsQname, v.dnsQtype);
    }

    /** Keeps a later packet of this attempt (see {@link #frames}). */
    void see(Sighting s) {
        if (frames == null) {
            frames = new ArrayList<>(4);
        }
        if (frames.size() < MAX_FRAMES) {
            frames.add(s);
        }
    }

    /**
     * When the attempt is decided: at {@link #expiresAt}; a DNS query answered by what it dialed once the answer's copies
     * are in, unless its answer was truncated (its retry over TCP is awaited) or the query sent with it is not answered
     * (a lost race is asked again, both queries at once: the re-send is this query's).
     */
    long decisionDue() {
        if (outcome != null) {
            return established.due();
        }
        if (query != null && answeredByTarget && !truncatedAnswer && (sibling == null || sibling.answeredByTarget)) {
            return Math.min(expiresAt, answerNanos + HandshakeTracker.ANSWER_COPIES_NANOS);
        }
        return expiresAt;
    }

    boolean is(long hi, long lo, int port, int seq) {
        return clientLo == lo && clientPort == port && isn == seq && clientHi == hi;
    }

    boolean isTarget(long hi, long lo, int port) {
        return targetLo == lo && targetPort == port && targetHi == hi;
    }

    public Endpoint client() {
        return Endpoint.address(clientHi, clientLo);
    }

    /** Whether the address {@code hi}:{@code lo} is this attempt's client's: no {@link Endpoint} made. */
    public boolean clientIs(long hi, long lo) {
        return lo == clientLo && hi == clientHi;
    }

    /** {@code table}'s entry for this attempt's client address (without port): no {@link Endpoint} made. */
    public <E extends EndpointTable.Entry> E clientIn(EndpointTable<E> table) {
        return table.get(clientHi, clientLo, Endpoint.NO_PORT);
    }

    /** {@code table}'s entry for this attempt's target (address and port): no {@link Endpoint} made. */
    public <E extends EndpointTable.Entry> E targetIn(EndpointTable<E> table) {
        return table.get(targetHi, targetLo, targetPort);
    }

    public int clientPort() {
        return clientPort;
    }

    public ExchangeKind kind() {
        return query != null ? ExchangeKind.DNS : udp ? ExchangeKind.UDP : ExchangeKind.TCP;
    }

    /** A UDP exchange or a DNS query (over UDP or TCP): what the tracker never reuses, and keeps in its own tables. */
    public boolean exchange() {
        return udp || query != null;
    }

    /**
     * Where DNAT sent the exchange's first packet: its DNAT'ed copy's destination, or for an exchange known from ICMP
     * errors alone, the destination the error quoted before reverse NAT; null when neither was seen.
     */
    public Endpoint dnatDestination() {
        return natCopy != null ? natCopy.destination() : quotedDnat;
    }

    /** Known only from an ICMP error quoting its datagram, which the capture does not hold. */
    public boolean quoteOnly() {
        return quoteOnly;
    }

    /**
     * Makes this the UDP exchange an ICMP error quotes ({@code v}'s quoted header): client, port and target from the
     * quote, time and place from the error itself.
     */
    void startFromQuote(Frame f, PacketView v) {
        start(f, v);
        quoteOnly = true;
        udp = true;
        clientHi = v.quotedSrcHi;
        clientLo = v.quotedSrcLo;
        clientPort = v.quotedSrcPort;
        targetHi = v.quotedDstHi;
        targetLo = v.quotedDstLo;
        targetPort = v.quotedDstPort;
        ipVersion = v.quotedVersion;
        synTtl = 0;
        synFlags = 0;
        synDnsFlags = 0;
        synSeq = 0;
        synAckNumber = 0;
        synWindow = 0;
        synLength = 0;
        synMss = -1;
        synHasSrcMac = false;
        synHasDstMac = false;
        synTunnel = null;
    }

    /** A UDP exchange (a DNS query or another datagram), not a TCP connection attempt. */
    public boolean udp() {
        return udp;
    }

    /** A DNS query's id and question, or null when this is no DNS query. */
    public DnsQuery query() {
        return query;
    }

    /** The rcode of the DNS answer that decided the outcome (the dialed address's, or the bypassing one), else -1. */
    public int rcode() {
        Sighting a = outcome == null ? null : answer();
        return a == null || a.dnsId < 0 ? -1 : a.dnsRcode;
    }

    /** A DNS query whose answer from the dialed address was truncated (TC) and never asked again over TCP. */
    public boolean truncatedNotRetried() {
        return truncatedAnswer && !retriedOverTcp;
    }

    /**
     * A DNS query that lost a race: its first send went unanswered (it was asked again, or never answered) while the
     * other query sent from the same socket within {@link HandshakeTracker#RACE_WINDOW_NANOS} was answered at once
     * (docs/design.md, dns-race-lost).
     */
    public boolean lostRace() {
        if (query == null || sibling == null || retransmissions == 0 || answeredByTarget && retransmissionsBeforeAnswer == 0) {
            return false;
        }
        return sibling.answeredByTarget && sibling.retransmissionsBeforeAnswer == 0 && sibling.answerNanos < lastSynNanos;
    }

    /** A DNS query sent again: from its first send to the first re-send (glibc: 5 s), else 0. */
    public long firstResendDelayNanos() {
        return retransmissions == 0 ? 0 : firstResendNanos - synNanos;
    }

    /** The query sent from the same socket within {@link HandshakeTracker#RACE_WINDOW_NANOS} of this one, or null. */
    public Attempt sibling() {
        return sibling;
    }

    /** A DNS query answered NOERROR: how many NXDOMAIN answers for its name with search suffixes came first. */
    public int searchMisses() {
        return searchMisses;
    }

    /** With {@link #searchMisses}: from the first of those queries to this one, what the search list cost. */
    public long searchDelayNanos() {
        return searchMisses == 0 ? 0 : synNanos - searchFirstNanos;
    }

    /** The dialed address's answer (a DNS query answered at once keeps it too), or null. */
    public Sighting targetAnswer() {
        return synAck;
    }

    public int isn() {
        return isn;
    }

    public Endpoint target() {
        return new Endpoint(targetHi, targetLo, targetPort);
    }

    /** The first sighting of the SYN (built on each call: it is held inline). */
    public Sighting syn() {
        return new Sighting(this);
    }

    /** Capture time of the first SYN. */
    public long synNanos() {
        return synNanos;
    }

    /** The frame number of the first SYN in its capture. */
    public long synFrame() {
        return synFrame;
    }

    /**
     * Whether this attempt's first SYN came before {@code b}'s in capture order ({@link TimeOrder}). The
     * tracker decides attempts in an order that depends on how its clock stepped (one reading thread or
     * two); whatever keeps "the first" of something must ask this instead.
     */
    public boolean before(Attempt b) {
        return TimeOrder.compare(synNanos, synCapture.index(), synFrame, b.synNanos, b.synCapture.index(), b.synFrame) < 0;
    }

    /** The capture the first SYN was seen in. */
    public Capture synCapture() {
        return synCapture;
    }

    public int retransmissions() {
        return retransmissions;
    }

    /** Every packet kept of this attempt, in capture order: its first SYN, then {@link #frames}. */
    public List<Sighting> frames() {
        List<Sighting> all = new ArrayList<>(1 + (frames == null ? 0 : frames.size()));
        if (!quoteOnly) {
            all.add(syn());
        }
        if (frames != null) {
            all.addAll(frames);
        }
        return all;
    }

    public Sighting natCopy() {
        return natCopy;
    }

    public Sighting otherSynAck() {
        return otherSynAck;
    }

    public Sighting reset() {
        return reset;
    }

    public Sighting icmp() {
        return icmp;
    }

    public Sighting clientReset() {
        return clientReset;
    }

    public Outcome outcome() {
        return outcome;
    }

    /** Answered by the dialed address, but only after the client retransmitted its SYN. */
    public boolean delayed() {
        return answeredByTarget && retransmissionsBeforeAnswer > 0;
    }

    /** Retransmissions before the answer of a delayed attempt. */
    public int retransmissionsBeforeAnswer() {
        return retransmissionsBeforeAnswer;
    }

    /** Answered by the dialed address: from the first SYN to its SYN-ACK (what the client waited), else -1. */
    public long connectNanos() {
        return answeredByTarget ? answerNanos - synNanos : -1;
    }

    /** For a delayed attempt: from its first SYN to the SYN that was answered (1 s, 3 s: the client's RTO). */
    public long delayNanos() {
        return answeredSynNanos - synNanos;
    }

    /** The packet that decided the outcome (for a delayed answer, its SYN-ACK), or null when nothing answered. */
    public Sighting answer() {
        return switch (outcome) {
            case ANSWERED -> synAck;
            case BYPASSED -> otherSynAck;
            case REFUSED -> reset;
            case REJECTED -> icmp;
            default -> null;
        };
    }

    /**
     * Who answered: ip:port of a SYN-ACK or RST, the source address of an ICMP error; null when nobody did,
     * and for an attempt answered at once (no finding needs it then).
     */
    public Endpoint responder() {
        Sighting a = answer();
        return a == null ? null : a.source();
    }

    /**
     * Whether an ICMP port unreachable answered the SYN from the very address that was dialed. A TCP host
     * answers a closed port with RST, never ICMP (RFC 9293 3.10.7.1): an address that does this is held by
     * a filter or IPVS on the node that answered for it. The one definition of "the node answered for the
     * VIP", used by the vip-local-reject rule and by what the capture teaches the context.
     */
    public boolean portUnreachableFromTarget() {
        if (icmp == null) {
            return false;
        }
        return IcmpTable.kind(icmp.ipVersion, icmp.icmpType, icmp.icmpCode) == IcmpKind.PORT_UNREACHABLE
                && icmp.srcHi == targetHi && icmp.srcLo == targetLo;
    }

    /** Time from the first SYN to the deciding answer, in nanoseconds, or -1. */
    public long rttNanos() {
        Sighting a = answer();
        return a == null ? -1 : a.nanos - synNanos;
    }
}
