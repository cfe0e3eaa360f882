package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.report.LiveStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metric labels stay bounded: Services beyond the bound share one label value, and that is counted. */
class LiveMetricsTest {
    @Test
    void serviceLabelsAreCappedAndTheOverflowCounted() {
        LiveMetrics metrics = new LiveMetrics(null);
        List<LiveStatus.Connect> connects = new ArrayList<>();
        for (int i = 0; i < LiveMetrics.MAX_SERVICES + 50; i++) {
            connects.add(new LiveStatus.Connect("shop", "svc-" + i, 2_000_000L));
        }
        metrics.tick(new LiveStatus(0, 0, Map.of(), Map.of(), Map.of(), List.of(), connects, 0));
        Map<String, Double> m = LiveAnalysisTest.scrape(metrics);
        long series = m.keySet().stream().filter(k -> k.startsWith("pcapdiag_connect_duration_seconds_count{")).count();
        assertEquals(LiveMetrics.MAX_SERVICES + 1, series, "one series per Service up to the bound, then _other");
        assertEquals(50.0, m.get("pcapdiag_connect_duration_seconds_count{namespace=\"_other\",service=\"_other\"}"));
        assertEquals(50.0, m.get("pcapdiag_label_overflow_total"));
        assertEquals(1.0, m.get("pcapdiag_connect_duration_seconds_count{namespace=\"shop\",service=\"svc-7\"}"));
    }
}
