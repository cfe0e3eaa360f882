package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Endpoint;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Groups decided attempts into findings per (pattern, client, target, responder). The number of groups
 * is bounded: attempts that would open a group past the bound are counted per pattern, not lost.
 */
public final class Findings {
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
    public static final Comparator<Finding> ORDER = new Comparator<>() { // not a method reference: NoLambdaLinkedTest
        @Override
        public int compare(Finding a, Finding b) {
            return Findings.compare(a, b);
        }
    };

    // Ordinals, which is what Enum.compareTo compares, without its class checks: the end of a run sorts every
    // group (16,250 on the bench trace, some 220,000 comparisons).
    private static int compare(Finding a, Finding b) {
        int c = Integer.compare(b.pattern().severity().ordinal(), a.pattern().severity().ordinal());
        if (c == 0) {
            c = Long.compare(b.attempts(), a.attempts());
        }
        if (c == 0) {
            c = Integer.compare(a.pattern().ordinal(), b.pattern().ordinal());
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

    /** In order of last change (access order): the eldest is the group that has not grown for longest. */
    private final Map<Key, Finding> groups = new LinkedHashMap<>(16, 0.75f, true);
    private final int maxGroups;
    private final Map<Pattern, long[]> overflow = new EnumMap<>(Pattern.class);
    /** Live: past the bound the stalest group makes room (null: offline, where new groups are counted instead). */
    private Runnable firstEviction;
    private long evictedGroups;

    public Findings(int maxGroups) {
        this.maxGroups = maxGroups;
    }

    /** Groups one decided attempt (nothing happens to attempts that show no pattern). */
    /** Groups a decided attempt into its finding, if it shows a pattern; true when the finding keeps it as an example. */
    public boolean decided(Attempt a) {
        Pattern p = Rules.classify(a);
        if (p == null) {
            return false;
        }
        Key key = new Key(p, a.client(), a.target(), a.responder());
        Finding f = groups.get(key);
        if (f == null) {
            if (groups.size() >= maxGroups) {
                if (firstEviction == null) {
                    overflowOf(p)[0]++;
                    return false;
                }
                evictStalest();
            }
            f = new Finding(p, key.client(), key.target(), key.responder());
            groups.put(key, f);
        }
        return f.add(a);
    }

    /**
     * Live capture runs for days: a bound that stops new groups would stop new findings for good. Past the bound the
     * group that has not grown for longest is dropped (its attempts are counted per pattern, as overflow) to make room;
     * {@code first} runs the first time, so that the run can say so.
     */
    public void evictStalestWhenFull(Runnable first) {
        this.firstEviction = Objects.requireNonNull(first);
    }

    private void evictStalest() {
        Iterator<Map.Entry<Key, Finding>> it = groups.entrySet().iterator();
        Map.Entry<Key, Finding> stale = it.next();
        it.remove();
        overflowOf(stale.getKey().pattern())[0] += stale.getValue().attempts();
        if (evictedGroups++ == 0) {
            firstEviction.run();
        }
    }

    /** Groups dropped to make room for newer ones (live). */
    public long evictedGroups() {
        return evictedGroups;
    }

    /**
     * The findings, each group re-read by the group rules with what the whole capture and the context
     * know now (a live run asks again later and may get another answer), in {@link #ORDER}: the first
     * {@code ranked} put in order now, the rest when one of them is asked for (see {@link RankedFindings}).
     */
    public RankedFindings results(Context context, int ranked) {
        RankedFindings.Builder out = new RankedFindings.Builder(groups.size(), ranked);
        for (Map.Entry<Key, Finding> e : groups.entrySet()) {
            reread(e.getValue(), e.getKey().pattern(), context, out);
        }
        return out.build();
    }

    /**
     * One group re-read, in a method of its own: C1 compiles a method after 200 calls, but the loop above only after
     * 60,000 rounds (its back-edge threshold), and the bench trace's 16,250 groups ran most of it interpreted
     * (PERFORMANCE.md).
     */
    private static void reread(Finding f, Pattern first, Context context, RankedFindings.Builder out) {
        f.reclassify(first, List.of()); // group rules read the group as its attempts named it
        for (GroupRule r : Rules.groupRules()) {
            if (r.refines().contains(first)) {
                Optional<List<Fact>> facts = r.matches(f, context);
                if (facts.isPresent()) {
                    f.reclassify(r.pattern(), facts.get());
                    break;
                }
            }
        }
        out.add(f);
    }

    /**
     * The pattern of the finding {@code a} belongs to, as {@link #results} last named it (a group rule may
     * have re-read it), or null when it belongs to none.
     */
    public Pattern patternOf(Attempt a) {
        Pattern p = Rules.classify(a);
        if (p == null) {
            return null;
        }
        Finding f = groups.get(new Key(p, a.client(), a.target(), a.responder()));
        return f == null ? p : f.pattern();
    }

    /** Attempts not grouped because the bound on groups was reached, per pattern as first classified. */
    public Map<Pattern, Long> overflow() {
        Map<Pattern, Long> m = new EnumMap<>(Pattern.class);
        for (Map.Entry<Pattern, long[]> e : overflow.entrySet()) {
            m.put(e.getKey(), e.getValue()[0]);
        }
        return m;
    }

    private long[] overflowOf(Pattern p) {
        long[] o = overflow.get(p);
        if (o == null) {
            o = new long[2];
            overflow.put(p, o);
        }
        return o;
    }

    @Override
    public String toString() {
        return groups.size() + " finding groups";
    }
}
