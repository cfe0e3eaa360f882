package io.pcapdiag.rules;

import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.AttemptSink;
import io.pcapdiag.track.Endpoint;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Groups decided attempts into findings per (pattern, client, target, responder). The number of groups
 * is bounded: attempts that would open a group past the bound are counted per pattern, not lost.
 */
public final class Findings implements AttemptSink {
    /** A finding's identity. Explicit equals/hashCode: a record's go through an invokedynamic bootstrap. */
    private record Key(Pattern pattern, Endpoint client, Endpoint target, Endpoint responder) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && pattern == k.pattern && client.equals(k.client) && target.equals(k.target)
                    && Objects.equals(responder, k.responder);
        }

        @Override
        public int hashCode() {
            return ((pattern.ordinal() * 31 + client.hashCode()) * 31 + target.hashCode()) * 31 + Objects.hashCode(responder);
        }
    }

    /** Most severe first, then most attempts, then by pattern, client, target, responder. */
    public static final Comparator<Finding> ORDER = Findings::compare;

    private static int compare(Finding a, Finding b) {
        int c = b.severity().compareTo(a.severity());
        if (c == 0) {
            c = Long.compare(b.attempts(), a.attempts());
        }
        if (c == 0) {
            c = a.pattern().compareTo(b.pattern());
        }
        if (c == 0) {
            c = a.client().compareTo(b.client());
        }
        if (c == 0) {
            c = a.target().compareTo(b.target());
        }
        if (c == 0 && a.responder() != b.responder()) {
            c = a.responder() == null ? -1 : b.responder() == null ? 1 : a.responder().compareTo(b.responder());
        }
        return c;
    }

    private final Map<Key, Finding> groups = new HashMap<>();
    private final int maxGroups;
    private final Map<Pattern, long[]> overflow = new EnumMap<>(Pattern.class);
    /** Per target that answered with its own SYN-ACK: the one client it answered, or {@link #MANY}. */
    private final Map<Endpoint, Endpoint> answered = new HashMap<>();
    private static final Endpoint MANY = new Endpoint(0, 0, Integer.MIN_VALUE);

    public Findings(int maxGroups) {
        this.maxGroups = maxGroups;
    }

    @Override
    public void decided(Attempt a) {
        Pattern p = Rules.classify(a);
        if (p == null) {
            if (a.outcome() == Outcome.ANSWERED) {
                noteAnswered(a.target(), a.client());
            }
            return;
        }
        Key key = new Key(p, a.client(), a.target(), a.responder());
        Finding f = groups.get(key);
        if (f == null) {
            if (groups.size() >= maxGroups) {
                long[] o = overflow.computeIfAbsent(p, k -> new long[2]);
                o[0]++;
                return;
            }
            f = new Finding(p, key.client(), key.target(), key.responder());
            groups.put(key, f);
        }
        f.add(a);
    }

    private void noteAnswered(Endpoint target, Endpoint client) {
        Endpoint seen = answered.get(target);
        if (seen == null) {
            answered.put(target, client);
        } else if (seen != MANY && !seen.equals(client)) {
            answered.put(target, MANY);
        }
    }

    /** Whether {@code target} answered some client other than {@code client} with its own SYN-ACK. */
    public boolean answersOthers(Endpoint target, Endpoint client) {
        Endpoint seen = answered.get(target);
        return seen != null && !seen.equals(client);
    }

    /**
     * The findings, with unanswered groups split into dropped probes and plain no-response by what the
     * whole capture showed, sorted by {@link #ORDER}.
     */
    public List<Finding> results(Rules.Context context) {
        List<Finding> out = new ArrayList<>(groups.size());
        for (Finding f : groups.values()) {
            if (f.pattern() == Pattern.NO_RESPONSE || f.pattern() == Pattern.LB_PROBE_DROPPED) {
                boolean probe = Rules.isDroppedProbe(f.distinctClientPorts(),
                        context.answersOthers(f.target(), f.client()), context.isVip(f.client()));
                f.reclassify(probe ? Pattern.LB_PROBE_DROPPED : Pattern.NO_RESPONSE);
                f.cutQuotes = context.cutQuotesTo(f.client());
            }
            out.add(f);
        }
        out.sort(ORDER);
        return out;
    }

    /** Attempts not grouped because the bound on groups was reached, per pattern as first classified. */
    public Map<Pattern, Long> overflow() {
        Map<Pattern, Long> m = new EnumMap<>(Pattern.class);
        overflow.forEach((p, o) -> m.put(p, o[0]));
        return m;
    }

    @Override
    public String toString() {
        return groups.size() + " finding groups";
    }
}
