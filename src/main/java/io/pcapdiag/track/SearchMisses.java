package io.pcapdiag.track;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The NXDOMAIN answers each client got lately, so that a query answered NOERROR can tell how many names of its
 * search list came first (docs/design.md, dns-search-expansion): a resolver with {@code ndots:5} asks
 * {@code api.example.com.default.svc.cluster.local.}, {@code api.example.com.svc.cluster.local.},
 * {@code api.example.com.cluster.local.} and only then {@code api.example.com.} (glibc resolv/res_query.c,
 * {@code __res_context_search}). Bounded: {@link #CLIENTS} clients, the least recent forgotten first, and
 * {@link #PER_CLIENT} answers each. A client that answers DNS queries itself (a DNS pod forwarding its clients'
 * names, NodeLocal DNSCache) asks what its clients asked: its NXDOMAINs are theirs, not a search list of its own.
 */
final class SearchMisses {
    static final int CLIENTS = 4096;
    static final int PER_CLIENT = 32;

    private record Client(long hi, long lo) {
    }

    /** An NXDOMAIN answer: the name asked (lowercased), its type, when it was sent, and its first label's hash. */
    private record Miss(String name, int type, long sentNanos, int firstLabel) {
    }

    /**
     * The hash of a lowercased name's first label: a name and its search-list expansions share it, so that a NOERROR
     * answer compares its stem only with the misses that may expand it.
     */
    private static int firstLabel(String lowerName) {
        int h = 0;
        for (int i = 0; i < lowerName.length() && lowerName.charAt(i) != '.'; i++) {
            h = 31 * h + lowerName.charAt(i);
        }
        return h;
    }

    private final Map<Client, ArrayDeque<Miss>> byClient = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Client, ArrayDeque<Miss>> eldest) {
            return size() > CLIENTS;
        }
    };
    /** Addresses seen answering DNS queries over UDP, the least recent forgotten past {@link #CLIENTS}. */
    private final Map<Client, Boolean> servers = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Client, Boolean> eldest) {
            return size() > CLIENTS;
        }
    };

    /** The address {@code hi}:{@code lo} sent a DNS response. */
    void server(long hi, long lo) {
        servers.put(new Client(hi, lo), Boolean.TRUE);
    }

    /** Query {@code q} was answered by the address it dialed with {@code rcode}. */
    void answered(Attempt q, int rcode) {
        if (q.query.name() == null || rcode != 3 && rcode != 0) {
            return;
        }
        Client c = new Client(q.clientHi, q.clientLo);
        if (servers.containsKey(c)) {
            return;
        }
        if (rcode == 3) {
            ArrayDeque<Miss> misses = byClient.computeIfAbsent(c, k -> new ArrayDeque<>());
            if (misses.size() == PER_CLIENT) {
                misses.removeFirst();
            }
            String name = q.query.lowerName();
            misses.addLast(new Miss(name, q.query.type(), q.synNanos, firstLabel(name)));
        } else {
            // Most clients have had no NXDOMAIN lately: their names are not lowercased.
            ArrayDeque<Miss> misses = byClient.get(c);
            if (misses == null) {
                return;
            }
            String name = q.query.lowerName();
            // "api.example.com." is the stem of "api.example.com.default.svc.cluster.local."
            String stem = name.endsWith(".") ? name : name + ".";
            int first = firstLabel(name);
            for (Iterator<Miss> it = misses.iterator(); it.hasNext(); ) {
                Miss m = it.next();
                if (m.firstLabel == first && m.type == q.query.type() && m.name.startsWith(stem) && m.name.length() > stem.length()
                        && q.synNanos - m.sentNanos <= HandshakeTracker.SEARCH_WINDOW_NANOS && m.sentNanos <= q.synNanos) {
                    if (q.searchMisses == 0 || m.sentNanos < q.searchFirstNanos) {
                        q.searchFirstNanos = m.sentNanos;
                    }
                    q.searchMisses++;
                    it.remove();
                }
            }
        }
    }
}
