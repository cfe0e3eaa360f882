package io.pcapdiag.check;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What differs between a baseline and a fresh analysis, as a compact diff: {@code - } a finding the baseline
 * has and the analysis does not, {@code + } the reverse, {@code ~ } the same finding (pattern, client, target)
 * with other counts, names or cause verdicts.
 */
public record Difference(int missing, int unexpected, int changed, List<String> lines) {

    public static Difference between(Baseline expected, Baseline actual) {
        Map<String, Deque<Expectation>> left = new LinkedHashMap<>();
        for (Expectation e : expected.findings()) {
            left.computeIfAbsent(e.key(), k -> new ArrayDeque<>()).add(e);
        }
        List<String> lines = new ArrayList<>();
        List<Expectation> extra = new ArrayList<>();
        int changed = 0;
        for (Expectation a : actual.findings()) {
            Deque<Expectation> same = left.get(a.key());
            Expectation e = same == null ? null : same.poll();
            if (e == null) {
                extra.add(a);
                continue;
            }
            List<String> changes = a.changesFrom(e);
            if (!changes.isEmpty()) {
                changed++;
                lines.add("~ " + a.key() + ": " + String.join("; ", changes));
            }
        }
        int missing = 0;
        for (Deque<Expectation> d : left.values()) {
            for (Expectation e : d) {
                missing++;
                lines.add("- " + e.describe());
            }
        }
        for (Expectation a : extra) {
            lines.add("+ " + a.describe());
        }
        if (expected.notListed() != actual.notListed()) {
            changed++;
            lines.add("~ findings counted but not listed: " + expected.notListed() + " -> " + actual.notListed());
        }
        return new Difference(missing, extra.size(), changed, List.copyOf(lines));
    }

    public boolean none() {
        return lines.isEmpty();
    }

    /** {@code 1 missing, 2 unexpected, 1 changed} (the non-zero parts). */
    public String counts() {
        List<String> parts = new ArrayList<>();
        if (missing > 0) {
            parts.add(missing + " missing");
        }
        if (unexpected > 0) {
            parts.add(unexpected + " unexpected");
        }
        if (changed > 0) {
            parts.add(changed + " changed");
        }
        return parts.isEmpty() ? "no difference" : String.join(", ", parts);
    }
}
