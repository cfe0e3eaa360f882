package io.pcapdiag.rules;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.RandomAccess;

/**
 * The findings of a run in {@link Findings#ORDER}, as a list, with their counts by pattern. A report lists the first
 * few (50 in text, 1,000 in JSON) and only counts the rest: the first {@code ranked} are picked when the list is made,
 * with a heap of the best so far (one comparison for most findings), and the rest are sorted the first time one of
 * them is asked for: sorting all the groups costs a run in proportion to their number (docs/performance.md). A list
 * not yet sorted through is for one thread, as an {@code ArrayList} is.
 */
public final class RankedFindings extends AbstractList<Finding> implements RandomAccess {
    private final Finding[] all;
    /** {@code all[0, sorted)} are the first findings in {@link Findings#ORDER}, in that order; the rest follow them. */
    private int sorted;
    private final long[] findings = new long[Pattern.values().length];
    private final long[] attempts = new long[Pattern.values().length];

    /** The list of {@code groups}, of which (at least) the first {@code ranked} are put in order now. */
    RankedFindings(Collection<Finding> groups, int ranked) {
        int k = Math.max(ranked, 0);
        PriorityQueue<Finding> best = new PriorityQueue<>(Findings.ORDER.reversed()); // the worst of the best on top
        List<Finding> rest = new ArrayList<>();
        groups.forEach(f -> offer(f, k, best, rest));
        List<Finding> ordered = new ArrayList<>(best);
        ordered.sort(Findings.ORDER);
        sorted = ordered.size();
        ordered.addAll(rest);
        all = ordered.toArray(new Finding[0]);
    }

    /** Counts {@code f}, and keeps it among the {@code k} best when it is better than the worst of them. */
    private void offer(Finding f, int k, PriorityQueue<Finding> best, List<Finding> rest) {
        findings[f.pattern().ordinal()]++;
        attempts[f.pattern().ordinal()] += f.attempts();
        if (best.size() < k) {
            best.add(f);
        } else if (k > 0 && Findings.ORDER.compare(f, best.peek()) < 0) {
            rest.add(best.poll());
            best.add(f);
        } else {
            rest.add(f);
        }
    }

    @Override
    public Finding get(int index) {
        Objects.checkIndex(index, all.length);
        if (index >= sorted) {
            Arrays.sort(all, sorted, all.length, Findings.ORDER);
            sorted = all.length;
        }
        return all[index];
    }

    @Override
    public int size() {
        return all.length;
    }

    /** How many findings the list has of pattern {@code p}. */
    public long findings(Pattern p) {
        return findings[p.ordinal()];
    }

    /** How many attempts the findings of pattern {@code p} have, together. */
    public long attempts(Pattern p) {
        return attempts[p.ordinal()];
    }

    /** How many findings the list has of severity {@code s}. */
    public long findings(Severity s) {
        return Arrays.stream(Pattern.values()).filter(p -> p.severity() == s).mapToLong(this::findings).sum();
    }

    /** Findings in order so far, for the tests: at least the number ranked when the list was made. */
    int sortedSoFar() {
        return sorted;
    }
}
