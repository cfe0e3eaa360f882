package io.pcapdiag.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A list of findings ranked in part ({@link RankedFindings}) is the fully sorted list: its first findings are in
 * {@link Findings#ORDER} without the rest being sorted, asking for any of the rest sorts them, and its counts by
 * pattern and severity are those of its findings. Over 2,000 random subsets of real findings and numbers to rank.
 */
class RankedFindingsTest {

    @Test
    void rankedFindingsAreTheSortedFindings() {
        List<Finding> pool = new ArrayList<>(FindingsOrderTest.scripted(3000, 7));
        assertTrue(pool.size() > 150, pool.size() + " findings");
        assertTrue(pool.stream().mapToLong(Finding::attempts).distinct().count() >= 3, "several attempt counts");
        assertTrue(pool.stream().map(Finding::severity).distinct().count() == 2, "both severities");
        Random rnd = new Random(11);
        int partly = 0;
        for (int round = 0; round < 2000; round++) {
            List<Finding> subset = new ArrayList<>(pool);
            Collections.shuffle(subset, rnd);
            subset = subset.subList(0, rnd.nextInt(pool.size() + 1));
            int n = subset.size();
            int ranked = switch (rnd.nextInt(5)) {
                case 0 -> 0;
                case 1 -> 1 + rnd.nextInt(3);
                case 2 -> rnd.nextInt(n + 1);
                case 3 -> n + rnd.nextInt(3);
                default -> 50;
            };
            List<Finding> expected = new ArrayList<>(subset);
            expected.sort(Findings.ORDER);
            RankedFindings got = new RankedFindings(subset, ranked);
            int first = Math.min(ranked, n);
            assertTrue(got.sortedSoFar() >= first, "at least the ranked ones in order");
            int before = got.sortedSoFar();
            for (int i = 0; i < first; i++) {
                assertEquals(expected.get(i), got.get(i), "round " + round + ": finding " + i + " of " + first + " ranked");
            }
            assertEquals(before, got.sortedSoFar(), "reading the ranked findings sorts nothing more");
            if (before < n) {
                partly++;
            }
            for (Pattern p : Pattern.values()) {
                assertEquals(expected.stream().filter(f -> f.pattern() == p).count(), got.findings(p), p.id());
                assertEquals(expected.stream().filter(f -> f.pattern() == p).mapToLong(Finding::attempts).sum(),
                        got.attempts(p), p.id());
            }
            for (Severity sev : Severity.values()) {
                assertEquals(expected.stream().filter(f -> f.severity() == sev).count(), got.findings(sev), sev.id());
            }
            assertEquals(expected, new ArrayList<>(got), "round " + round + ": the whole list, " + first + " ranked");
            assertEquals(n, got.sortedSoFar());
        }
        assertTrue(partly > 500, "lists ranked only in part: " + partly);
    }
}
