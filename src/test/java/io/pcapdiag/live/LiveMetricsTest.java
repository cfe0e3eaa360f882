package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.report.LiveStatus;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Outcome;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metric labels stay bounded: Services beyond the bound share one label value, and that is counted. {@code /metrics}
 * speaks OpenMetrics to a scraper that asks for it (as Prometheus does) and the Prometheus text format otherwise, each
 * accepted by a parser of its own: the OpenMetrics parser of the Python client (Debian's python3-prometheus-client)
 * and {@code promtool check metrics}.
 */
class LiveMetricsTest {
    /** The Accept header Prometheus sends when it scrapes (scrape.go, since 2.5): OpenMetrics first. */
    private static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0,"
            + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

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

    /**
     * DNS queries as the tracker decides them: answered ones time the DNS Service's histogram, whatever their rcode;
     * failures are counted by rcode (NXDOMAIN, SERVFAIL, REFUSED, any other) or by the missing answer; a NOERROR answer
     * and a query still pending are no failure.
     */
    @Test
    void dnsQueriesGiveTheServicesLatencyAndTheirFailuresByRcode() {
        LiveMetrics metrics = new LiveMetrics(null);
        String ns = "kube-system";
        String dns = "kube-dns";
        metrics.dns(ns, dns, Outcome.ANSWERED, 0, 2_000_000L);
        metrics.dns(ns, dns, Outcome.ANSWERED, 3, 1_000_000L);
        metrics.dns(ns, dns, Outcome.ANSWERED, 3, 1_000_000L);
        metrics.dns(ns, dns, Outcome.ANSWERED, 2, 5_004_000_000L);
        metrics.dns(ns, dns, Outcome.ANSWERED, 5, 300_000L);
        metrics.dns(ns, dns, Outcome.ANSWERED, 16, 300_000L); // BADVERS: the OPT record's upper rcode bits
        metrics.dns(ns, dns, Outcome.UNANSWERED, -1, -1);
        metrics.dns(ns, dns, Outcome.REJECTED, -1, -1);
        metrics.dns(ns, dns, Outcome.BYPASSED, 0, -1);
        metrics.dns(ns, dns, Outcome.PENDING, -1, -1);
        metrics.dns("", "", Outcome.UNANSWERED, -1, -1);
        Map<String, Double> m = LiveAnalysisTest.scrape(metrics);
        String svc = "namespace=\"kube-system\",service=\"kube-dns\"";
        assertEquals(6.0, m.get("pcapdiag_dns_duration_seconds_count{" + svc + "}"), "every answered query is timed");
        assertEquals(9.0, m.get("pcapdiag_dns_queries_total{" + svc + "}"), "every decided query is counted, pending ones not");
        assertEquals(1.0, m.get("pcapdiag_dns_queries_total{namespace=\"\",service=\"\"}"));
        assertEquals(4.0, m.get("pcapdiag_dns_duration_seconds_bucket{" + svc + ",le=\"0.001\"}"));
        assertEquals(5.0, m.get("pcapdiag_dns_duration_seconds_bucket{" + svc + ",le=\"0.005\"}"));
        assertEquals(5.0, m.get("pcapdiag_dns_duration_seconds_bucket{" + svc + ",le=\"5.0\"}"), "the SERVFAIL after 5 s");
        Map<String, Double> failures = new java.util.TreeMap<>();
        m.forEach((k, v) -> {
            if (k.startsWith("pcapdiag_dns_failures_total{") && v > 0) {
                failures.put(k.substring("pcapdiag_dns_failures_total".length()), v);
            }
        });
        assertEquals(Map.of(
                "{failure=\"bypassed\"," + svc + "}", 1.0,
                "{failure=\"nxdomain\"," + svc + "}", 2.0,
                "{failure=\"other-rcode\"," + svc + "}", 1.0,
                "{failure=\"refused\"," + svc + "}", 1.0,
                "{failure=\"rejected\"," + svc + "}", 1.0,
                "{failure=\"servfail\"," + svc + "}", 1.0,
                "{failure=\"unanswered\"," + svc + "}", 1.0,
                "{failure=\"unanswered\",namespace=\"\",service=\"\"}", 1.0), failures);
        long unnamed = m.keySet().stream().filter(k -> k.startsWith("pcapdiag_dns_failures_total{")
                && k.endsWith("namespace=\"\",service=\"\"}")).count();
        assertEquals(LiveMetrics.DNS_FAILURES.size(), unnamed, "every failure's series exists from the start, at 0");
    }

    /** DNS Services share the connect times' bound on Service labels: one set, one overflow counter. */
    @Test
    void dnsServiceLabelsShareTheBound() {
        LiveMetrics metrics = new LiveMetrics(null);
        List<LiveStatus.Connect> connects = new ArrayList<>();
        for (int i = 0; i < LiveMetrics.MAX_SERVICES - 1; i++) {
            connects.add(new LiveStatus.Connect("shop", "svc-" + i, 2_000_000L));
        }
        metrics.tick(new LiveStatus(0, 0, Map.of(), Map.of(), Map.of(), List.of(), connects, 0));
        metrics.dns("kube-system", "kube-dns", Outcome.ANSWERED, 3, 1_000_000L);
        metrics.dns("dns", "node-local-dns", Outcome.UNANSWERED, -1, -1);
        metrics.dns("kube-system", "kube-dns", Outcome.ANSWERED, 0, 1_000_000L);
        Map<String, Double> m = LiveAnalysisTest.scrape(metrics);
        assertEquals(2.0, m.get("pcapdiag_dns_duration_seconds_count{namespace=\"kube-system\",service=\"kube-dns\"}"));
        assertEquals(1.0, m.get("pcapdiag_dns_failures_total{failure=\"unanswered\",namespace=\"_other\",service=\"_other\"}"));
        assertEquals(1.0, m.get("pcapdiag_label_overflow_total"));
    }

    @Test
    void metricsAnswerOpenMetricsWhenAskedAndTheTextFormatOtherwise(@TempDir Path dir) throws Exception {
        LiveMetrics metrics = new LiveMetrics("node-a");
        metrics.tick(new LiveStatus(0, 0, Map.of(Outcome.ANSWERED, 5L, Outcome.REFUSED, 2L), Map.of(),
                Map.of(Pattern.CONNECTION_REFUSED, 2L),
                List.of(new InterfaceStatus("eth0", "eth0", "EN10MB", 9, 0, 0, 9, 0, 0, null, null)),
                List.of(new LiveStatus.Connect("shop", "cart", 2_000_000L)), 0));
        metrics.dns("kube-system", "kube-dns", Outcome.ANSWERED, 2, 40_000_000L);
        metrics.dns("kube-system", "kube-dns", Outcome.UNANSWERED, -1, -1);
        try (MetricsServer server = new MetricsServer("127.0.0.1", 0, metrics.registry(), () -> true)) {
            String[] open = get(server.port(), PROMETHEUS_ACCEPT);
            assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8", open[0]);
            assertTrue(open[1].endsWith("# EOF\n"), open[1]);
            String[] text = get(server.port(), "*/*");
            assertEquals("text/plain; version=0.0.4; charset=utf-8", text[0]);
            assertEquals(text[0], get(server.port(), null)[0], "no Accept header: the text format");

            Files.writeString(dir.resolve("openmetrics.txt"), open[1]);
            Files.writeString(dir.resolve("text.txt"), text[1]);
            // The strict OpenMetrics parser: it refuses a missing # EOF, a counter sample without _total, a bad label.
            String parsed = run(dir, List.of("/usr/bin/python3", "-c", String.join("\n",
                    "from prometheus_client.openmetrics import parser as om",
                    "from prometheus_client import parser as text",
                    "def samples(families):",
                    "    return sorted((s.name, tuple(sorted(s.labels.items())), s.value) for f in families for s in f.samples)",
                    "a = samples(om.text_string_to_metric_families(open('openmetrics.txt').read()))",
                    "b = samples(text.text_string_to_metric_families(open('text.txt').read()))",
                    "assert a == b, (a, b)",
                    "print(len(a), [s for s in a if s[0] in ('pcapdiag_attempts_total', 'pcapdiag_dns_failures_total',"
                            + " 'pcapdiag_dns_duration_seconds_count') and s[2] > 0])")),
                    "Debian's python3-prometheus-client");
            assertTrue(parsed.contains("('pcapdiag_attempts_total', (('node', 'node-a'), ('outcome', 'answered')), 5.0)"), parsed);
            assertTrue(parsed.contains("('pcapdiag_dns_failures_total', (('failure', 'servfail'), ('namespace', 'kube-system'),"
                    + " ('node', 'node-a'), ('service', 'kube-dns')), 1.0)"), parsed);
            assertTrue(parsed.contains("('pcapdiag_dns_duration_seconds_count', (('namespace', 'kube-system'), ('node', 'node-a'),"
                    + " ('service', 'kube-dns')), 1)"), parsed);
            // promtool's linter on the text format: help on every metric, counters named _total, units in names...
            assertEquals("", run(dir, List.of("sh", "-c", "promtool check metrics < text.txt"), "promtool (Debian's prometheus)"));
        }
    }

    /** The Content-Type and the body of GET /metrics with {@code accept} (none if null). */
    private static String[] get(int port, String accept) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            OutputStream o = s.getOutputStream();
            o.write(("GET /metrics HTTP/1.1\r\nHost: x\r\n" + (accept == null ? "" : "Accept: " + accept + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            o.flush();
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int split = all.indexOf("\r\n\r\n");
            String type = all.substring(0, split).lines().filter(l -> l.startsWith("Content-Type: ")).findFirst().orElseThrow();
            return new String[] {type.substring("Content-Type: ".length()), all.substring(split + 4)};
        }
    }

    /** What {@code command} printed (stdout and stderr); it must exit 0. A missing tool skips, and fails in CI. */
    private static String run(Path dir, List<String> command, String tool) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            missing(tool);
            return "";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        if (out.contains("No module named 'prometheus_client'")) {
            missing(tool);
        }
        assertEquals(0, p.exitValue(), String.join(" ", command) + ":\n" + out);
        return out.strip();
    }

    private static void missing(String tool) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail(tool + " must be installed in CI (scripts/test installs it)");
        }
        Assumptions.abort(tool + " is not installed");
    }
}
