package io.pcapdiag.context;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.TimeOrder;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.EndpointTable;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.Sighting;
import io.pcapdiag.track.TrackerSink;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the capture itself teaches about addresses, learnt from every decided attempt: which Service
 * address was DNAT'ed to which backend, which addresses answered for themselves with ICMP port
 * unreachable (VIPs held on this node), which targets answered which clients, and ICMP errors that could
 * not be paired. Bounded like the tracker: past {@link #MAX_ENTRIES} per table new addresses are counted,
 * not kept.
 */
public final class CaptureFacts implements Context, TrackerSink {
    /** Addresses or services kept per table: a node capture has far fewer distinct Service addresses. */
    public static final int MAX_ENTRIES = 1 << 16;
    /** Backends kept per Service address:port; more only count. */
    private static final int MAX_BACKENDS = 16;

    /** The backends V:p was seen DNAT'ed to, each with the earliest DNAT'ed copy that showed it. */
    private final Map<Endpoint, Map<Endpoint, Sighting>> dnat = new HashMap<>();
    /** Service addresses without port, from the earliest DNAT'ed copy. */
    private final Map<Endpoint, Sighting> dnatAddresses = new HashMap<>();
    /** Addresses that answered a SYN to themselves with ICMP port unreachable: the earliest such answer. */
    private final Map<Endpoint, Sighting> localRejects = new HashMap<>();
    /** Per target address:port: its decided attempts, and the clients it answered whose attempts came first. */
    private final EndpointTable<Target> targets = new EndpointTable<>();
    private final Map<Endpoint, Long> unpairedIcmp = new HashMap<>();
    /** DNS queries each address sent, as a DNS server forwarding upstream: the first that failed, and how many did not. */
    private final Map<Endpoint, Upstream> upstream = new HashMap<>();
    /** Client addresses seen, the first {@link #MAX_CLIENTS}: which node a capture is from is inferred from them. */
    private final List<Endpoint> clients = new ArrayList<>();
    /** What {@link #clients} holds, looked up without making an {@link Endpoint} per decided attempt. */
    private final EndpointTable<Client> clientTable = new EndpointTable<>();
    private static final int MAX_CLIENTS = 1024;
    private boolean citeCaptures;
    /** Decided attempts, those of them that got any answer, and answers that paired with none: {@link #answerCounts()}. */
    private long decided;
    private long answered;
    private long unpaired;

    /** One target's attempts and answered clients: one lookup per decided attempt. */
    /** One address's own DNS queries: the first that failed (SERVFAIL, REFUSED or no answer), and those answered. */
    private static final class Upstream {
        Sighting firstFailed;
        String failure;
        long failed;
        long answered;
    }

    private static final class Target extends EndpointTable.Entry {
        long attempts;
        Answered answered;

        Target(Endpoint target) {
            super(target);
        }
    }

    /** A client address in {@link #clientTable}. */
    private static final class Client extends EndpointTable.Entry {
        Client(Endpoint client) {
            super(client);
        }
    }

    /**
     * The two clients of a target whose first answered attempt came first: enough to name, for any client,
     * another one the target answered.
     */
    private static final class Answered {
        static final int CLIENTS_KEPT = 2;
        /** The clients' addresses, as longs: compared per decided attempt without an Endpoint to read or make. */
        final long[] clientHis = new long[CLIENTS_KEPT];
        final long[] clientLos = new long[CLIENTS_KEPT];
        /** Each client's first answered SYN: time, capture, frame (not the attempt: it must not outlive its decision). */
        final long[] nanos = new long[CLIENTS_KEPT];
        final Capture[] captures = new Capture[CLIENTS_KEPT];
        final long[] frames = new long[CLIENTS_KEPT];
        int size;

        private boolean earlier(long n, Capture c, long f, int i) {
            return TimeOrder.compare(n, c.index(), f, nanos[i], captures[i].index(), frames[i]) < 0;
        }

        Endpoint client(int i) {
            return Endpoint.address(clientHis[i], clientLos[i]);
        }

        private void set(int i, Endpoint client, long n, Capture c, long f) {
            clientHis[i] = client.hi();
            clientLos[i] = client.lo();
            firstSyn(i, n, c, f);
        }

        private void firstSyn(int i, long n, Capture c, long f) {
            nanos[i] = n;
            captures[i] = c;
            frames[i] = f;
        }

        void add(Attempt a) {
            long n = a.synNanos();
            Capture c = a.synCapture();
            long f = a.synFrame();
            for (int i = 0; i < size; i++) {
                if (a.clientIs(clientHis[i], clientLos[i])) {
                    if (earlier(n, c, f, i)) {
                        firstSyn(i, n, c, f);
                    }
                    return;
                }
            }
            if (size < CLIENTS_KEPT) {
                set(size++, a.client(), n, c, f);
                return;
            }
            int latest = 0;
            for (int i = 1; i < size; i++) {
                if (earlier(nanos[latest], captures[latest], frames[latest], i)) {
                    latest = i;
                }
            }
            if (earlier(n, c, f, latest)) {
                set(latest, a.client(), n, c, f);
            }
        }

        /** The client other than {@code client} (an address) whose first answered SYN came first, or -1. */
        int other(Endpoint client) {
            int best = -1;
            for (int i = 0; i < size; i++) {
                if (!(clientHis[i] == client.hi() && clientLos[i] == client.lo())
                        && (best < 0 || earlier(nanos[i], captures[i], frames[i], best))) {
                    best = i;
                }
            }
            return best;
        }
    }

    /** Keeps {@code s} under {@code key} unless an earlier sighting is already there (capture order). */
    private <K> void keepEarliest(Map<K, Sighting> m, K key, Sighting s) {
        Sighting had = m.get(key);
        if (had == null ? room(m) : TimeOrder.compare(s.nanos, s.capture.index(), s.frame,
                had.nanos, had.capture.index(), had.frame) < 0) {
            m.put(key, s);
        }
    }

    /** Whether facts name the capture when they cite a frame (the run reads several). */
    public void citeCaptures(boolean cite) {
        this.citeCaptures = cite;
    }

    /** Learns from a decided attempt; holds on to nothing of it but its immutable sightings. */
    @Override
    public boolean decided(Attempt a) {
        Outcome outcome = a.outcome();
        if (a.exchange()) {
            udp(a);
            return false;
        }
        if (outcome != Outcome.PENDING && outcome != Outcome.EVICTED) {
            decided++;
            if (outcome != Outcome.UNANSWERED) {
                answered++;
            }
        }
        if (clients.size() < MAX_CLIENTS && a.clientIn(clientTable) == null) {
            Endpoint client = a.client();
            clients.add(client);
            clientTable.put(new Client(client));
        }
        // Most attempts go to a target seen before, and need no Endpoint made (see EndpointTable).
        Target t = a.targetIn(targets);
        if (t == null && room(targets.size())) {
            t = new Target(a.target());
            targets.put(t);
        }
        if (t != null) {
            t.attempts++;
            if (outcome == Outcome.ANSWERED) {
                if (t.answered == null) {
                    t.answered = new Answered();
                }
                t.answered.add(a);
            }
        }
        Sighting nat = a.natCopy();
        if (nat != null) {
            Endpoint target = a.target();
            Map<Endpoint, Sighting> backends = dnat.get(target);
            if (backends == null && room(dnat)) {
                backends = new HashMap<>();
                dnat.put(target, backends);
            }
            if (backends != null && (backends.size() < MAX_BACKENDS || backends.containsKey(nat.destination()))) {
                keepEarliest(backends, nat.destination(), nat);
            }
            keepEarliest(dnatAddresses, target.withoutPort(), nat);
        }
        if (outcome == Outcome.REJECTED && a.portUnreachableFromTarget()) {
            keepEarliest(localRejects, a.target().withoutPort(), a.icmp());
        }
        return false;
    }

    /**
     * A UDP exchange teaches where its Service DNATs (as a SYN does) and, for a DNS query, whether its client's own
     * queries fail: what a DNS pod forwarding upstream meets. The handshake's counts (answered, one-way, targets)
     * stay TCP's: an unanswered datagram is no failure of UDP.
     */
    private void udp(Attempt a) {
        Sighting nat = a.natCopy();
        if (nat != null) {
            keepEarliest(dnatAddresses, a.target().withoutPort(), nat);
            Map<Endpoint, Sighting> backends = dnat.get(a.target());
            if (backends == null && room(dnat)) {
                backends = new HashMap<>();
                dnat.put(a.target(), backends);
            }
            if (backends != null && (backends.size() < MAX_BACKENDS || backends.containsKey(nat.destination()))) {
                keepEarliest(backends, nat.destination(), nat);
            }
        }
        if (a.query() == null || a.outcome() == Outcome.PENDING || a.outcome() == Outcome.EVICTED) {
            return;
        }
        Endpoint client = a.client();
        Upstream u = upstream.get(client);
        if (u == null) {
            if (!room(upstream)) {
                return;
            }
            u = new Upstream();
            upstream.put(client, u);
        }
        int rcode = a.rcode();
        boolean failed = a.outcome() == Outcome.UNANSWERED || a.delayed() || rcode == 2 || rcode == 5;
        if (!failed) {
            u.answered++;
            return;
        }
        u.failed++;
        if (u.firstFailed == null || TimeOrder.compare(a.synNanos(), a.synCapture().index(), a.synFrame(),
                u.firstFailed.nanos, u.firstFailed.capture.index(), u.firstFailed.frame) < 0) {
            u.firstFailed = a.syn();
            u.failure = a.query().question() + " to " + a.target() + (rcode == 2 || rcode == 5
                    ? " was answered " + io.pcapdiag.track.DnsQuery.rcodeName(rcode) : " got no answer");
        }
    }

    @Override
    public Optional<DnsUpstream> dnsUpstream(Endpoint server) {
        Upstream u = upstream.get(server.withoutPort());
        if (u == null) {
            return Optional.empty();
        }
        if (u.failed == 0) {
            return Optional.of(new DnsUpstream(false, new Fact(Source.CAPTURE, server.withoutPort() + "'s own "
                    + u.answered + " DNS " + (u.answered == 1 ? "query was" : "queries were") + " answered without error")));
        }
        return Optional.of(new DnsUpstream(true, new Fact(Source.CAPTURE, server.withoutPort() + "'s own query "
                + u.failure + " (" + ref(u.firstFailed) + "; " + u.failed + " of " + (u.failed + u.answered)
                + " of its queries failed)")));
    }

    @Override
    public void unpairedIcmp(Endpoint destination) {
        unpaired++;
        Long n = unpairedIcmp.get(destination);
        if (n != null) {
            unpairedIcmp.put(destination, n + 1);
        } else if (room(unpairedIcmp)) {
            unpairedIcmp.put(destination, 1L);
        }
    }

    private boolean room(Map<?, ?> m) {
        return room(m.size());
    }

    private boolean room(int size) {
        return size < MAX_ENTRIES;
    }

    /** Client addresses seen (the first 1024), in the order their first attempts were decided. */
    public List<Endpoint> clients() {
        return Collections.unmodifiableList(clients);
    }

    private String ref(Sighting s) {
        return s.ref(citeCaptures);
    }

    @Override
    public Optional<Fact> backendOf(Endpoint address, Endpoint service) {
        Map<Endpoint, Sighting> backends = dnat.get(service);
        if (backends == null) {
            return Optional.empty();
        }
        for (Map.Entry<Endpoint, Sighting> e : backends.entrySet()) {
            if (e.getKey().sameAddress(address)) {
                return Optional.of(Fact.capture("the capture shows " + service + " DNAT'ed to " + e.getKey()
                        + " (" + ref(e.getValue()) + ")"));
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<Fact> answersOthers(Endpoint target, Endpoint client) {
        Target t = targets.get(target);
        Answered a = t == null ? null : t.answered;
        int other = a == null ? -1 : a.other(client.withoutPort());
        if (other < 0) {
            return Optional.empty();
        }
        String syn = citeCaptures ? a.captures[other].name() + " #" + a.frames[other] : "#" + a.frames[other];
        return Optional.of(Fact.capture(target + " answered " + a.client(other) + " in this capture (SYN " + syn + ")"));
    }

    @Override
    public Optional<Fact> serviceAddress(Endpoint address) {
        Endpoint a = address.withoutPort();
        Sighting nat = dnatAddresses.get(a);
        if (nat != null) {
            return Optional.of(Fact.capture("the capture shows connections to " + a + " DNAT'ed to "
                    + nat.destination() + " (" + ref(nat) + ")"));
        }
        Sighting icmp = localRejects.get(a);
        if (icmp != null) {
            return Optional.of(Fact.capture(a + " answered a SYN to itself with ICMP port unreachable ("
                    + ref(icmp) + "): the node holds it as a VIP"));
        }
        return Optional.empty();
    }

    @Override
    public long attemptsTo(Endpoint target) {
        Target t = targets.get(target);
        return t == null ? 0 : t.attempts;
    }

    @Override
    public void unmatchedAnswer() {
        unpaired++;
    }

    @Override
    public AnswerCounts answerCounts() {
        return new AnswerCounts(decided, answered, unpaired, targets.size(), targets.size() >= MAX_ENTRIES);
    }

    @Override
    public long unpairedIcmpTo(Endpoint client) {
        return unpairedIcmp.getOrDefault(client.withoutPort(), 0L);
    }
}
