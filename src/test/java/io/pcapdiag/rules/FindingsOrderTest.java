package io.pcapdiag.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.testing.PacketScript;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The report's order of findings: most severe first, then most attempts, then by pattern, client, target and
 * responder (none first), on findings of several patterns, severities and attempt counts.
 */
class FindingsOrderTest {
    static final Comparator<Finding> REPORT_ORDER = Comparator
            .comparing(Finding::severity, Comparator.reverseOrder())
            .thenComparing(Finding::attempts, Comparator.reverseOrder())
            .thenComparing(Finding::pattern)
            .thenComparing(Finding::client)
            .thenComparing(Finding::target)
            .thenComparing(Finding::responder, Comparator.nullsFirst(Comparator.<Endpoint>naturalOrder()));

    /** The findings of {@link PacketScript#mixedFailures}. */
    static List<Finding> scripted(int attempts, long seed) {
        return new PacketScript().mixedFailures(attempts, seed).finish().findings();
    }

    @Test
    void findingsAreInReportOrder() {
        List<Finding> got = scripted(1200, 42);
        assertTrue(got.size() > 150, got.size() + " findings");
        assertTrue(got.stream().map(Finding::pattern).distinct().count() >= 3, "several patterns");
        assertTrue(got.stream().mapToLong(Finding::attempts).distinct().count() >= 3, "several attempt counts");
        assertEquals(2, got.stream().map(Finding::severity).distinct().count(), "both severities");
        List<Finding> expected = new ArrayList<>(got);
        expected.sort(REPORT_ORDER);
        for (int i = 0; i < got.size(); i++) {
            assertEquals(describe(expected.get(i)), describe(got.get(i)), "finding " + i);
        }
    }

    private static String describe(Finding f) {
        return f.severity() + " " + f.attempts() + " " + f.pattern() + " " + f.client() + " " + f.target() + " " + f.responder();
    }
}
