package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.track.Attempt;
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
    /** A finding's identity. */
    private record Key(Pattern pattern, Endpoint client, Endpoint target, Endpoint responder) {
    }

    /** Most severe first, then most attempts, then by pattern, client, target, responder (none first). */
    public static final Comparator<Finding> ORDER = Comparator.comparing(Finding::severity, Comparator.reverseOrder())
            .thenComparing(Comparator.comparingLong(Finding::attempts).reversed())
            .thenComparing(Finding::pattern)
            .thenComparing(Finding::client)
            .thenComparing(Finding::target)
            .thenComparing(Finding::responder, Comparator.nullsFirst(Comparator.naturalOrder()));

    /** In order of last change (access order): the eldest is the group that has not grown for longest. */
    private final Map<Key, Finding> groups = new LinkedHashMap<>(16, 0.75f, true);
    private final int maxGroups;
    /** Attempts not grouped, by the ordinal of the pattern they were first classified as. */
    private final long[] overflow = new long[Pattern.values().length];
    /** Live: past the bound the stalest group makes room (null: offline, where new groups are counted instead). */
    private Runnable firstEviction;
    private boolean evicted;

    public Findings(int maxGroups) {
        this.maxGroups = maxGroups;
    }

    /** Groups a decided attempt into its finding, if it shows a pattern; true when the finding keeps it as an example. */
    public boolean decided(Attempt a) {
        Pattern p = Rules.classify(a);
        return p != null && group(p, a, responder(p, a));
    }

    /**
     * Groups a connection followed after its handshake, once decided, into its finding if it shows a pattern after the
     * handshake; true when the finding keeps it as an example.
     */
    public boolean followed(Attempt a) {
        ConnectionRule r = Rules.connectionRule(a);
        return r != null && group(r.pattern(), a, r.responder(a));
    }

    private boolean group(Pattern p, Attempt a, Endpoint responder) {
        Key key = new Key(p, a.client(), a.target(), responder);
        Finding f = groups.get(key);
        if (f == null) {
            if (groups.size() >= maxGroups) {
                if (firstEviction == null) {
                    overflow[p.ordinal()]++;
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
        overflow[stale.getKey().pattern().ordinal()] += stale.getValue().attempts();
        if (!evicted) {
            evicted = true;
            firstEviction.run();
        }
    }

    /**
     * The findings in {@link #ORDER}, the first {@code ranked} put in order now and the rest when one of them is asked
     * for ({@link RankedFindings}); each group re-read by the group rules (in their order, the first that matches names
     * it) with what the whole capture and the context know now: a live run asks again later and may get another answer.
     */
    public RankedFindings results(Context context, int ranked) {
        groups.forEach((key, f) -> reread(f, key.pattern(), context));
        return new RankedFindings(groups.values(), ranked);
    }

    /** The group rules' reading of one group whose attempts named it {@code first}: the first rule that matches names it. */
    private static void reread(Finding f, Pattern first, Context context) {
        f.reclassify(first, List.of());
        for (GroupRule r : Rules.groupRules()) {
            Optional<List<Fact>> facts = r.refines().contains(first) ? r.matches(f, context) : Optional.empty();
            if (facts.isPresent()) {
                f.reclassify(r.pattern(), facts.get());
                return;
            }
        }
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
        Finding f = groups.get(new Key(p, a.client(), a.target(), responder(p, a)));
        return f == null ? p : f.pattern();
    }

    /**
     * Who answered, as the finding groups it: queries that went unanswered at first are one finding whether or not
     * the re-sent query was answered, and a search expansion's answer comes from what was dialed.
     */
    private static Endpoint responder(Pattern p, Attempt a) {
        return p == Pattern.DNS_NO_RESPONSE || p == Pattern.DNS_RACE_LOST || p == Pattern.DNS_SEARCH_EXPANSION
                ? null : a.responder();
    }

    /** Attempts not grouped because the bound on groups was reached, per pattern as first classified. */
    public Map<Pattern, Long> overflow() {
        Map<Pattern, Long> m = new EnumMap<>(Pattern.class);
        for (Pattern p : Pattern.values()) {
            if (overflow[p.ordinal()] > 0) {
                m.put(p, overflow[p.ordinal()]);
            }
        }
        return m;
    }

    @Override
    public String toString() {
        return groups.size() + " finding groups";
    }
}
