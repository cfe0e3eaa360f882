package io.pcapdiag.context;

import io.pcapdiag.capture.TimeOrder;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Endpoint;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.Sighting;
import io.pcapdiag.track.TrackerSink;
import java.util.HashMap;
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
    /** Per target that answered with its own SYN-ACK: the clients whose attempts came first. */
    private final Map<Endpoint, Answered> answered = new HashMap<>();
    private final Map<Endpoint, Long> unpairedIcmp = new HashMap<>();
    /** Decided attempts per target address:port. */
    private final Map<Endpoint, long[]> attempts = new HashMap<>();
    private boolean citeCaptures;
    private long overflow;

    /**
     * The {@link #CLIENTS_KEPT} clients of a target whose first answered attempt came first, with that
     * attempt's SYN. Kept by capture order, not by the order attempts are decided (which depends on how the
     * tracker's clock stepped), so the fact cited is the same however the capture was read.
     */
    private static final class Answered {
        static final int CLIENTS_KEPT = 4;
        final Endpoint[] clients = new Endpoint[CLIENTS_KEPT];
        final Attempt[] first = new Attempt[CLIENTS_KEPT];
        int size;

        void add(Attempt a) {
            Endpoint c = a.client();
            int latest = 0;
            for (int i = 0; i < size; i++) {
                if (clients[i].equals(c)) {
                    if (a.before(first[i])) {
                        first[i] = a;
                    }
                    return;
                }
                if (first[latest].before(first[i])) {
                    latest = i;
                }
            }
            if (size < CLIENTS_KEPT) {
                clients[size] = c;
                first[size++] = a;
            } else if (a.before(first[latest])) {
                clients[latest] = c;
                first[latest] = a;
            }
        }

        /** The first answered attempt of a client other than {@code client}, or null. */
        Attempt other(Endpoint client) {
            Attempt best = null;
            for (int i = 0; i < size; i++) {
                if (!clients[i].equals(client) && (best == null || first[i].before(best))) {
                    best = first[i];
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

    @Override
    public void decided(Attempt a) {
        long[] n = attempts.get(a.target());
        if (n == null && room(attempts)) {
            n = new long[1];
            attempts.put(a.target(), n);
        }
        if (n != null) {
            n[0]++;
        }
        Sighting nat = a.natCopy();
        if (nat != null) {
            Map<Endpoint, Sighting> backends = dnat.get(a.target());
            if (backends == null && room(dnat)) {
                backends = new HashMap<>();
                dnat.put(a.target(), backends);
            }
            if (backends != null && (backends.size() < MAX_BACKENDS || backends.containsKey(nat.destination()))) {
                keepEarliest(backends, nat.destination(), nat);
            }
            keepEarliest(dnatAddresses, a.target().withoutPort(), nat);
        }
        if (a.outcome() == Outcome.REJECTED && a.portUnreachableFromTarget()) {
            keepEarliest(localRejects, a.target().withoutPort(), a.icmp());
        }
        if (a.outcome() == Outcome.ANSWERED) {
            Answered seen = answered.get(a.target());
            if (seen == null && room(answered)) {
                seen = new Answered();
                answered.put(a.target(), seen);
            }
            if (seen != null) {
                seen.add(a);
            }
        }
    }

    @Override
    public void unpairedIcmp(Endpoint destination) {
        Long n = unpairedIcmp.get(destination);
        if (n != null) {
            unpairedIcmp.put(destination, n + 1);
        } else if (room(unpairedIcmp)) {
            unpairedIcmp.put(destination, 1L);
        }
    }

    private boolean room(Map<?, ?> m) {
        if (m.size() < MAX_ENTRIES) {
            return true;
        }
        overflow++;
        return false;
    }

    /** Facts not kept because a table was full. */
    public long overflow() {
        return overflow;
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
        Answered a = answered.get(target);
        Attempt other = a == null ? null : a.other(client.withoutPort());
        if (other == null) {
            return Optional.empty();
        }
        return Optional.of(Fact.capture(target + " answered " + other.client() + " in this capture (SYN "
                + ref(other.syn()) + ")"));
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
        long[] n = attempts.get(target);
        return n == null ? 0 : n[0];
    }

    @Override
    public long unpairedIcmpTo(Endpoint client) {
        return unpairedIcmp.getOrDefault(client.withoutPort(), 0L);
    }
}
