package io.pcapdiag.context;

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

    /** The backends V:p was seen DNAT'ed to, each with the first DNAT'ed copy that showed it. */
    private final Map<Endpoint, Map<Endpoint, Sighting>> dnat = new HashMap<>();
    /** Service addresses without port, from the DNAT'ed copies. */
    private final Map<Endpoint, Sighting> dnatAddresses = new HashMap<>();
    /** Addresses that answered a SYN to themselves with ICMP port unreachable. */
    private final Map<Endpoint, Sighting> localRejects = new HashMap<>();
    /** Per target that answered with its own SYN-ACK: the first answered attempt, and whether another client was answered too. */
    private final Map<Endpoint, Answered> answered = new HashMap<>();
    private final Map<Endpoint, Long> unpairedIcmp = new HashMap<>();
    /** Decided attempts per target address:port. */
    private final Map<Endpoint, long[]> attempts = new HashMap<>();
    private boolean citeCaptures;
    private long overflow;

    private static final class Answered {
        final Endpoint client;
        final Sighting syn;
        Endpoint otherClient;
        Sighting otherSyn;

        Answered(Endpoint client, Sighting syn) {
            this.client = client;
            this.syn = syn;
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
            if (backends != null && backends.size() < MAX_BACKENDS) {
                backends.putIfAbsent(nat.destination(), nat);
            }
            if (!dnatAddresses.containsKey(a.target().withoutPort()) && room(dnatAddresses)) {
                dnatAddresses.put(a.target().withoutPort(), nat);
            }
        }
        if (a.outcome() == Outcome.REJECTED && a.portUnreachableFromTarget()) {
            Endpoint v = a.target().withoutPort();
            if (!localRejects.containsKey(v) && room(localRejects)) {
                localRejects.put(v, a.icmp());
            }
        }
        if (a.outcome() == Outcome.ANSWERED) {
            Answered seen = answered.get(a.target());
            if (seen == null) {
                if (room(answered)) {
                    answered.put(a.target(), new Answered(a.client(), a.syn()));
                }
            } else if (seen.otherClient == null && !seen.client.equals(a.client())) {
                seen.otherClient = a.client();
                seen.otherSyn = a.syn();
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
        if (a == null) {
            return Optional.empty();
        }
        Endpoint other = a.client;
        Sighting syn = a.syn;
        if (a.client.equals(client.withoutPort())) {
            other = a.otherClient;
            syn = a.otherSyn;
        }
        if (other == null) {
            return Optional.empty();
        }
        return Optional.of(Fact.capture(target + " answered " + other + " in this capture (SYN " + ref(syn) + ")"));
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
