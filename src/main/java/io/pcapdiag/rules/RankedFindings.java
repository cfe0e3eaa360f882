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
    private final long[] findings;
    private final long[] attempts;

    private RankedFindings(Builder b) {
        this.all = b.ranked();
        this.sorted = b.k < 0 ? all.length : b.size;
        this.findings = b.findings;
        this.attempts = b.attempts;
    }

    /**
     * Builds the list one finding at a time, as they are made: each is counted and, when only a few are to be ranked,
     * offered to the heap of the best so far while it is still in the cache. The end of a run makes 16,250 of them,
     * spread over the heap; reading each once more to count it and once more to rank it was 17 of the 491 samples of
     * a CPU profile's reading thread.
     */
    static final class Builder {
        private final Finding[] all;
        private int n;
        /** How many to pick with the heap; -1 when most of them are wanted and all are sorted instead. */
        private final int k;
        /** A heap of the best {@code k} so far (indexes into {@code all}), the worst of them on top. */
        private final int[] heap;
        private int size;
        private final long[] findings = new long[PATTERNS.size()];
        private final long[] attempts = new long[PATTERNS.size()];

        /** For {@code capacity} findings, of which the first {@code ranked} (at least) are to be put in order now. */
        Builder(int capacity, int ranked) {
            all = new Finding[capacity];
            int wanted = Math.min(Math.max(ranked, 0), capacity);
            // Most of them wanted: a heap would compare more than a sort does.
            k = wanted >= capacity / 4 ? -1 : wanted;
            heap = new int[Math.max(k, 0)];
        }

        void add(Finding f) {
            findings[f.pattern().ordinal()]++;
            attempts[f.pattern().ordinal()] += f.attempts();
            int i = n++;
            all[i] = f;
            if (k < 0) {
                return;
            }
            if (size < k) {
                int at = size++;
                while (at > 0 && Findings.ORDER.compare(all[heap[(at - 1) >>> 1]], f) < 0) {
                    heap[at] = heap[(at - 1) >>> 1];
                    at = (at - 1) >>> 1;
                }
                heap[at] = i;
            } else if (k > 0 && Findings.ORDER.compare(f, all[heap[0]]) < 0) {
                siftDown(i);
            }
        }

        RankedFindings build() {
            return new RankedFindings(this);
        }

        /** Puts index {@code i} on top of the heap in place of the worst, and lets it sink to where it belongs. */
        private void siftDown(int i) {
            int at = 0;
            while (true) {
                int child = 2 * at + 1;
                if (child >= size) {
                    break;
                }
                if (child + 1 < size && Findings.ORDER.compare(all[heap[child + 1]], all[heap[child]]) > 0) {
                    child++;
                }
                if (Findings.ORDER.compare(all[heap[child]], all[i]) <= 0) {
                    break;
                }
                heap[at] = heap[child];
                at = child;
            }
            heap[at] = i;
        }

        /** The findings added: all of them in order, or the heap's in order followed by the others as they came. */
        private Finding[] ranked() {
            Finding[] a = n == all.length ? all : Arrays.copyOf(all, n);
            if (k < 0) {
                Arrays.sort(a, Findings.ORDER);
                return a;
            }
            Finding[] out = new Finding[n];
            int[] picked = Arrays.copyOf(heap, size);
            for (int j = 0; j < size; j++) {
                out[j] = a[picked[j]];
            }
            Arrays.sort(out, 0, size, Findings.ORDER);
            // The rest in the order they came, copied in runs between the picked ones: a loop over every finding
            // would run interpreted (16,250 on the bench trace, under C1's back-edge threshold; PERFORMANCE.md).
            Arrays.sort(picked);
            int m = size;
            int from = 0;
            for (int p : picked) {
                System.arraycopy(a, from, out, m, p - from);
                m += p - from;
                from = p + 1;
            }
            System.arraycopy(a, from, out, m, n - from);
            return out;
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
