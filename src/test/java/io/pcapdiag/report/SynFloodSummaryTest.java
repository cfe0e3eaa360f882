package io.pcapdiag.report;

import static io.pcapdiag.testing.PacketScript.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.testing.PacketScript;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A SYN flood larger than the tracker's table: the summary must not say "none shows a failure" of attempts it never
 * judged. It says how many were judged, how many were evicted unjudged, and that there is no verdict on those.
 */
class SynFloodSummaryTest {
    private static Result flood(int syns, int maxOpen) {
        PacketScript s = new PacketScript(new Analysis.Options(maxOpen, Analysis.Options.DEFAULT_MAX_FINDINGS, List.of()));
        for (int i = 0; i < syns; i++) {
            s.syn(i * MS, "10.244." + (i >> 8) + "." + (i & 0xff), 40000, "10.96.0.10", 80, 1000 + i);
        }
        return s.finish();
    }

    @Test
    void overflowIsSaidWithWhatItMeansForTheVerdict() {
        Result r = flood(50, 10);
        assertEquals(40, r.tracker().evicted());
        assertEquals("no findings among the 10 connection attempts judged; 40 more were evicted unjudged (the table was"
                + " full): no verdict on those", TextReporter.totalLine(r));
    }

    @Test
    void withoutOverflowTheUsualLine() {
        Result r = flood(3, 10);
        assertEquals(0, r.tracker().evicted());
        assertEquals("no findings: 3 connection attempts analysed, none shows a failure", TextReporter.totalLine(r));
    }
}
