package io.pcapdiag.rules;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The findings of a run in {@link Findings#ORDER}, as a list. A report lists the first few (50 in text, 1,000 in JSON)
 * and only counts the rest, by pattern: the first {@code ranked} are picked when the list is made, with a bounded heap
 * (one comparison for most findings), and the rest are sorted the first time one of them is asked for. Sorting all
 * 16,250 findings of the bench trace took 15 ms at the end of a run (the comparisons read findings spread over the
 * heap, partly in the interpreter); picking 50 of them takes one comparison each. Counting by pattern never sorts.
 * A list not yet sorted through is for one thread, as an {@code ArrayList} is.
 */
public final class RankedFindings extends AbstractList<Finding> implements RandomAccess {
    private static final List<Pattern> PATTERNS = List.of(Pattern.values());
    private final Finding[] all;
    /** {@code all[0, sorted)} are the first findings in {@link Findings#ORDER}, in that order; the rest follow them. */
    private int sorted;
    private final long[] findings = new long[PATTERNS.size()];
    private final long[] attempts = new long[PATTERNS.size()];

    /** @param ranked how many of the first findings to put in order now (at least); the rest wait until asked for */
    RankedFindings(List<Finding> unordered, int ranked) {
        Finding[] a = unordered.toArray(new Finding[0]);
        for (Finding f : a) {
            findings[f.pattern().ordinal()]++;
            attempts[f.pattern().ordinal()] += f.attempts();
        }
        int k = Math.min(Math.max(ranked, 0), a.length);
        if (k >= a.length / 4) {
            // Most of them are wanted: a heap would compare more than a sort does.
            Arrays.sort(a, Findings.ORDER);
            sorted = a.length;
        } else {
            a = pickFirst(a, k);
            sorted = k;
        }
        this.all = a;
    }

    /** The first {@code k} of {@code a} in order, followed by the others in the order they came. */
    private static Finding[] pickFirst(Finding[] a, int k) {
        // A heap of the best k so far, the worst of them on top: a finding that does not beat it costs one comparison.
        int[] heap = new int[k];
        int size = 0;
        for (int i = 0; i < a.length; i++) {
            if (size < k) {
                int at = size++;
                while (at > 0 && Findings.ORDER.compare(a[heap[(at - 1) >>> 1]], a[i]) < 0) {
                    heap[at] = heap[(at - 1) >>> 1];
                    at = (at - 1) >>> 1;
                }
                heap[at] = i;
            } else if (k > 0 && Findings.ORDER.compare(a[i], a[heap[0]]) < 0) {
                siftDown(a, heap, size, i);
            }
        }
        Finding[] out = new Finding[a.length];
        boolean[] picked = new boolean[a.length];
        for (int j = 0; j < size; j++) {
            out[j] = a[heap[j]];
            picked[heap[j]] = true;
        }
        Arrays.sort(out, 0, size, Findings.ORDER);
        int n = size;
        for (int i = 0; i < a.length; i++) {
            if (!picked[i]) {
                out[n++] = a[i];
            }
        }
        return out;
    }

    /** Puts index {@code i} on top of the heap in place of the worst, and lets it sink to where it belongs. */
    private static void siftDown(Finding[] a, int[] heap, int size, int i) {
        int at = 0;
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && Findings.ORDER.compare(a[heap[child + 1]], a[heap[child]]) > 0) {
                child++;
            }
            if (Findings.ORDER.compare(a[heap[child]], a[i]) <= 0) {
                break;
            }
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = i;
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
        long n = 0;
        for (Pattern p : PATTERNS) {
            if (p.severity() == s) {
                n += findings[p.ordinal()];
            }
        }
        return n;
    }

    /** Findings in order so far, for the tests: at least the number ranked when the list was made. */
    int sortedSoFar() {
        return sorted;
    }
}
