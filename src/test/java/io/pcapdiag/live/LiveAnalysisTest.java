package io.pcapdiag.live;

import static io.pcapdiag.testing.TcpBuilder.ACK;
import static io.pcapdiag.testing.TcpBuilder.RST;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.cluster.ClusterIndex;
import io.pcapdiag.cluster.Snapshot;
import io.pcapdiag.context.ClusterContext;
import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.report.Format;
import io.pcapdiag.report.JsonSchemas;
import io.pcapdiag.report.JsonLinesReporter;
import io.pcapdiag.report.Reporter;
import io.pcapdiag.report.TextReporter;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.DnsBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.SchemaCheck;
import io.pcapdiag.testing.TcpBuilder;
import io.pcapdiag.track.HandshakeTracker;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import static io.pcapdiag.live.NamespaceSupport.projectDir;

/**
 * The analysis side of live mode, driven with packets built in memory from two fake interfaces: time
 * order across interfaces, clock ticks, streamed findings (text and JSON lines) and the metrics.
 */
class LiveAnalysisTest {
    static final long T0 = 1_732_190_400_000_000_000L;
    private static final long MS = 1_000_000L;
    /** Late enough for the tracker to have decided every attempt of a burst that started at T0. */
    private static final long DECIDED = T0 + 2 * HandshakeTracker.LINGER_NANOS;
    private static final long END = T0 + 3 * HandshakeTracker.LINGER_NANOS;

    /** A packet source without libpcap. */
    static final class FakeSource implements PacketSource {
        final Capture capture;
        CaptureStats stats = CaptureStats.NONE;
        long number;
        long lastDelivery = Long.MIN_VALUE;
        boolean handingOver;

        FakeSource(int index, String name) {
            capture = new Capture(index, name);
        }

        Captured packet(long nanos, byte[] ip) {
            byte[] frame = LinkBuilder.ethernet(ip);
            return new Captured(this, nanos, frame, frame.length, ++number);
        }

        @Override
        public Capture capture() {
            return capture;
        }

        @Override
        public String device() {
            return capture.name();
        }

        @Override
        public int linkType() {
            return LinkBuilder.LINKTYPE_ETHERNET;
        }

        @Override
        public CaptureStats stats() {
            return stats;
        }

        @Override
        public Path file() {
            return null;
        }

        @Override
        public long lastDelivery() {
            return lastDelivery;
        }

        @Override
        public boolean handingOver() {
            return handingOver;
        }

        @Override
        public String endReason() {
            return null;
        }
    }

    static byte[] tcp4(String src, int sport, String dst, int dport, int flags, int seq, int ack) {
        return Ipv4Builder.ipv4(src, dst).tcp(TcpBuilder.tcp(sport, dport).flags(flags).seq(seq).ack(ack)).build();
    }

    private final StringWriter out = new StringWriter();
    private final LiveMetrics metrics = new LiveMetrics("node-1");
    private final FakeSource vethA = new FakeSource(1, "veth-a");
    private final FakeSource vethB = new FakeSource(2, "veth-b");

    private LiveAnalysis analysis(Format format) {
        PrintWriter w = new PrintWriter(out, true);
        Reporter output = format == Format.jsonl ? new JsonLinesReporter(w, "node-1") : new TextReporter(w, false);
        LiveAnalysis live = new LiveAnalysis(Analysis.Options.defaults(), List.of(output), metrics, 50);
        live.register(vethA);
        live.register(vethB);
        return live;
    }

    /** A refused, an answered and an unanswered attempt; the RST and SYN-ACK are seen on the other veth. */
    private void play(LiveAnalysis live) {
        // Arrival order is not time order: the RST (veth-b) reaches the analysis thread before its SYN (veth-a).
        live.add(vethB.packet(T0 + 50_000, tcp4("10.244.0.19", 80, "10.244.0.18", 40000, RST | ACK, 0, 1001)));
        live.add(vethA.packet(T0, tcp4("10.244.0.18", 40000, "10.244.0.19", 80, SYN, 1000, 0)));
        live.add(vethA.packet(T0 + MS, tcp4("10.244.0.18", 40001, "10.244.0.20", 80, SYN, 5000, 0)));
        live.add(vethB.packet(T0 + MS + 100_000, tcp4("10.244.0.20", 80, "10.244.0.18", 40001, SYN | ACK, 9000, 5001)));
        live.add(vethA.packet(T0 + 2 * MS, tcp4("10.244.0.18", 40002, "10.244.0.21", 80, SYN, 7000, 0)));
        live.add(vethA.packet(T0 + 3 * MS, Ipv6Builder.ipv6("2001:db8::18", "2001:db8::19")
                .tcp(TcpBuilder.tcp(40003, 80).flags(SYN).seq(1)).build()));
        live.add(vethB.packet(T0 + 3 * MS + 40_000, Ipv6Builder.ipv6("2001:db8::19", "2001:db8::18")
                .tcp(TcpBuilder.tcp(80, 40003).flags(RST | ACK).ack(2)).build()));
        assertEquals(7, live.pending());
        long w = live.watermark(List.of(vethA, vethB), T0 - 1000 * MS, 100 * MS, true);
        assertEquals(T0 + 3 * MS, w, "veth-a has shown everything up to its last packet");
        live.release(w);
        assertEquals(1, live.pending(), "veth-b's last packet may still have an older companion on veth-a");
    }

    @Test
    void streamsEachFindingOnceWhenTheClockDecidesIt() throws Exception {
        LiveAnalysis live = analysis(Format.text);
        play(live);
        live.release(T0 + 10 * MS);
        live.tick(T0 + 2 * 1000 * MS);
        live.stream(T0 + 2000 * MS, false);
        assertEquals("", out.toString(), "nothing is decided before the tracker's linger");

        live.tick(DECIDED);
        live.stream(DECIDED, false);
        List<String> lines = out.toString().lines().toList();
        assertEquals(3, lines.size(), out.toString());
        assertTrue(lines.get(0).startsWith("2024-11-21 12:00:00.000000 WARNING connection-refused 10.244.0.18 -> "
                + "10.244.0.19:80 answered by 10.244.0.19:80 [veth-a #1]: connection refused (RST)"), lines.get(0));
        assertTrue(lines.get(1).contains("no-response 10.244.0.18 -> 10.244.0.21:80 [veth-a #3]"), lines.get(1));
        assertTrue(lines.get(2).contains("connection-refused 2001:db8::18 -> [2001:db8::19]:80"), lines.get(2));

        // A second look with nothing new prints nothing again.
        live.stream(DECIDED + 500 * MS, true);
        assertEquals(3, out.toString().lines().count());

        Result r = live.finish(T0, END);
        assertEquals(3, r.findings().size());
        assertEquals(List.of(), r.captures(), "live mode prints its own interface lines");
        assertEquals(1L, r.outcomes().get(io.pcapdiag.track.Outcome.ANSWERED));
        List<InterfaceStatus> st = live.statuses();
        assertEquals(List.of("veth-a", "veth-b"), st.stream().map(InterfaceStatus::capture).toList());
        assertEquals(4, st.get(0).packets());
        assertEquals(3, st.get(1).packets());
    }

    /**
     * DNS queries to the lab's kube-dns (named from its cluster snapshot) reach the metrics as the tracker decides them:
     * timed per DNS Service when answered, counted as failures by rcode or as unanswered; none is a TCP connect time.
     */
    @Test
    void dnsQueriesReachTheMetricsByDnsService() throws Exception {
        ClusterIndex index = Snapshot.load(projectDir().resolve("captures/dns-servfail/cluster.json")).index();
        LiveAnalysis live = new LiveAnalysis(new Analysis.Options(Analysis.Options.DEFAULT_MAX_OPEN,
                Analysis.Options.DEFAULT_MAX_FINDINGS, List.of(new ClusterContext(() -> index, "the cluster"))),
                List.of(new TextReporter(new PrintWriter(out, true), false)), metrics, 50);
        live.register(vethA);
        String client = "10.244.0.18";
        String vip = "10.96.0.10";
        live.add(vethA.packet(T0, dns(client, 33900, vip, 53, DnsBuilder.query(1, "db.corp.example", 1).build())));
        live.add(vethA.packet(T0 + 2 * MS, dns(vip, 53, client, 33900, DnsBuilder.query(1, "db.corp.example", 1).response(2).build())));
        live.add(vethA.packet(T0 + MS, dns(client, 33901, vip, 53, DnsBuilder.query(2, "nope.shop.svc.cluster.local", 1).build())));
        live.add(vethA.packet(T0 + 3 * MS, dns(vip, 53, client, 33901,
                DnsBuilder.query(2, "nope.shop.svc.cluster.local", 1).response(3).build())));
        live.add(vethA.packet(T0 + 4 * MS, dns(client, 33902, vip, 53, DnsBuilder.query(3, "web.shop.svc.cluster.local", 1).build())));
        live.add(vethA.packet(T0 + 5 * MS, dns(vip, 53, client, 33902,
                DnsBuilder.query(3, "web.shop.svc.cluster.local", 1).response(0).answerA("10.96.10.80").build())));
        live.add(vethA.packet(T0 + 6 * MS, dns(client, 33903, vip, 53, DnsBuilder.query(4, "lost.example", 1).build())));
        // A UDP exchange that is no DNS query, answered: no connect time either.
        live.add(vethA.packet(T0 + 7 * MS, Ipv4Builder.ipv4(client, "10.244.0.19").payload(Ipv4Builder.PROTO_UDP,
                DnsBuilder.udp(41000, 9000, new byte[8])).build()));
        live.add(vethA.packet(T0 + 8 * MS, Ipv4Builder.ipv4("10.244.0.19", client).payload(Ipv4Builder.PROTO_UDP,
                DnsBuilder.udp(9000, 41000, new byte[8])).build()));
        live.release(T0 + 10 * MS);
        live.tick(END);
        live.stream(END, true);
        live.poll(END);
        Map<String, Double> m = scrape(metrics);
        String svc = "namespace=\"kube-system\",node=\"node-1\",service=\"kube-dns\"";
        assertEquals(4.0, m.get("pcapdiag_dns_queries_total{" + svc + "}"), m.toString());
        assertEquals(3.0, m.get("pcapdiag_dns_duration_seconds_count{" + svc + "}"));
        assertEquals(0.005, m.get("pcapdiag_dns_duration_seconds_sum{" + svc + "}"), 1e-9, "2 ms + 2 ms + 1 ms to the answers");
        assertEquals(1.0, m.get("pcapdiag_dns_failures_total{failure=\"servfail\"," + svc + "}"));
        assertEquals(1.0, m.get("pcapdiag_dns_failures_total{failure=\"nxdomain\"," + svc + "}"));
        assertEquals(1.0, m.get("pcapdiag_dns_failures_total{failure=\"unanswered\"," + svc + "}"));
        assertEquals(List.of(), m.keySet().stream().filter(k -> k.startsWith("pcapdiag_connect_duration_seconds_count")).toList(),
                "a DNS or UDP answer is no TCP connect time");
    }

    private static byte[] dns(String src, int sport, String dst, int dport, byte[] message) {
        return Ipv4Builder.ipv4(src, dst).payload(Ipv4Builder.PROTO_UDP, DnsBuilder.udp(sport, dport, message)).build();
    }

    @Test
    void metricsCountAttemptsFindingsPacketsAndDrops() throws Exception {
        LiveAnalysis live = analysis(Format.text);
        play(live);
        vethA.stats = new CaptureStats(4, 0, 0);
        vethB.stats = new CaptureStats(10, 3, 1);
        // The clock never passes a packet still held back (veth-b's v6 RST): nothing is decided yet.
        live.tick(DECIDED);
        live.stream(DECIDED, false);
        assertEquals(0, out.toString().lines().count(), out.toString());
        live.release(T0 + 10 * MS);
        live.tick(DECIDED);
        live.stream(DECIDED, false);
        live.poll(DECIDED);
        Map<String, Double> m = scrape(metrics);
        assertEquals(2.0, m.get("pcapdiag_attempts_total{node=\"node-1\",outcome=\"refused\"}"));
        assertEquals(1.0, m.get("pcapdiag_attempts_total{node=\"node-1\",outcome=\"answered\"}"));
        assertEquals(1.0, m.get("pcapdiag_attempts_total{node=\"node-1\",outcome=\"unanswered\"}"));
        assertEquals(0.0, m.get("pcapdiag_attempts_total{node=\"node-1\",outcome=\"bypassed\"}"));
        assertEquals(2.0, m.get("pcapdiag_findings_total{namespace=\"\",node=\"node-1\",pattern=\"connection-refused\",service=\"\"}"));
        assertEquals(1.0, m.get("pcapdiag_findings_total{namespace=\"\",node=\"node-1\",pattern=\"no-response\",service=\"\"}"));
        assertEquals(0.0, m.get("pcapdiag_findings_total{namespace=\"\",node=\"node-1\",pattern=\"nat-bypass-reply\",service=\"\"}"));
        assertEquals(2.0, m.get("pcapdiag_finding_attempts{node=\"node-1\",pattern=\"connection-refused\"}"));
        assertEquals(4.0, m.get("pcapdiag_capture_packets_total{interface=\"veth-a\",node=\"node-1\"}"));
        assertEquals(3.0, m.get("pcapdiag_capture_packets_total{interface=\"veth-b\",node=\"node-1\"}"));
        assertEquals(10.0, m.get("pcapdiag_capture_received_total{interface=\"veth-b\",node=\"node-1\"}"));
        assertEquals(3.0, m.get("pcapdiag_capture_dropped_total{by=\"kernel\",interface=\"veth-b\",node=\"node-1\"}"));
        assertEquals(1.0, m.get("pcapdiag_capture_dropped_total{by=\"interface\",interface=\"veth-b\",node=\"node-1\"}"));
        assertEquals(0.0, m.get("pcapdiag_capture_dropped_total{by=\"kernel\",interface=\"veth-a\",node=\"node-1\"}"));
        // The one answered attempt's connect time (SYN-ACK 100 us after the SYN), no Service known: empty labels.
        assertEquals(1.0, m.get("pcapdiag_connect_duration_seconds_count{namespace=\"\",node=\"node-1\",service=\"\"}"));
        assertEquals(1.0, m.get("pcapdiag_connect_duration_seconds_bucket{namespace=\"\",node=\"node-1\",service=\"\",le=\"5.0E-4\"}"),
                "100 us: in the first bucket");

        // Counters only grow by what libpcap's counters grew by.
        vethB.stats = new CaptureStats(15, 3, 1);
        live.finish(T0, END);
        m = scrape(metrics);
        assertEquals(15.0, m.get("pcapdiag_capture_received_total{interface=\"veth-b\",node=\"node-1\"}"));
        assertEquals(3.0, m.get("pcapdiag_capture_packets_total{interface=\"veth-b\",node=\"node-1\"}"));
        assertEquals(3.0, m.get("pcapdiag_capture_dropped_total{by=\"kernel\",interface=\"veth-b\",node=\"node-1\"}"));
    }

    @Test
    void jsonLinesCarryTheReportsFindingKeys() throws Exception {
        LiveAnalysis live = analysis(Format.jsonl);
        play(live);
        live.release(T0 + 10 * MS);
        live.tick(DECIDED);
        live.stream(DECIDED, false);
        live.summary(DECIDED + MS, T0);
        live.finish(T0, END);
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.toString().lines().toList()) {
            lines.add(json.readTree(line));
        }
        // Streamed as they appeared, a summary, then at the end each finding's final form and the report (live lists no
        // capture files: its interfaces are in the report line).
        assertEquals(List.of("finding", "finding", "finding", "summary", "finding", "finding", "finding", "report"),
                lines.stream().map(n -> n.get("event").asText()).toList());
        assertEquals(List.of(false, false, false, true, true, true), lines.stream()
                .filter(n -> n.get("event").asText().equals("finding")).map(n -> n.get("final").asBoolean()).toList());
        for (JsonNode line : lines) {
            assertEquals(List.of(), SchemaCheck.errors(JsonSchemas.Document.EVENTS, line), line.toString());
        }
        JsonNode refused = lines.get(0);
        assertEquals("node-1", refused.get("node").asText());
        assertEquals("connection-refused", refused.get("pattern").asText());
        assertEquals("warning", refused.get("severity").asText());
        assertEquals("10.244.0.18", refused.get("client").asText());
        assertEquals("10.244.0.19:80", refused.get("target").asText());
        assertEquals("10.244.0.19:80", refused.get("responder").asText());
        assertEquals(1, refused.get("attempts").asInt());
        assertEquals("veth-a", refused.get("evidence").get(0).get("capture").asText());
        assertEquals(1, refused.get("evidence").get(0).get("frame").asInt());
        assertEquals("veth-b", refused.get("evidence").get(1).get("capture").asText());
        assertTrue(refused.get("explanation").get("statements").findValuesAsText("text").stream()
                .anyMatch(t -> t.contains("Nothing listens on port 80")), refused.toString());
        JsonNode noResponse = lines.get(1);
        assertTrue(noResponse.get("responder").isNull());
        assertEquals("[2001:db8::19]:80", lines.get(2).get("target").asText());

        JsonNode summary = lines.get(3);
        assertEquals(4, summary.get("attempts").get("total").asInt());
        assertEquals(2, summary.get("findings").get("connection-refused").asInt());
        assertEquals("veth-b", summary.get("interfaces").get(1).get("device").asText());

        JsonNode report = lines.get(7);
        assertFalse(report.has("findings"), "live: the closing line summarises; the findings' final forms are lines of their own");
        assertEquals(lines.get(0).get("pattern"), lines.get(4).get("pattern"), "the final lines in the report's order");
        assertEquals(3, report.get("findings_listed").asInt());
        assertEquals(0, report.get("captures_listed").asInt());
        assertEquals(2, report.get("schema_version").asInt());
        assertEquals(2, report.get("interfaces").size());
        assertEquals(3, report.get("interfaces").get(1).get("packets").asInt());
        assertTrue(report.get("interfaces").get(1).has("dropped_by_kernel"));
    }

    @Test
    void quietInterfacesDoNotHoldPacketsBackForever() {
        LiveAnalysis live = analysis(Format.text);
        live.add(vethA.packet(T0, tcp4("10.244.0.18", 40000, "10.244.0.19", 80, SYN, 1000, 0)));
        vethA.lastDelivery = T0;
        // veth-b has said nothing: veth-a's packet waits until the window has passed.
        long w = live.watermark(List.of(vethA, vethB), T0 + 50 * MS, 100 * MS, true);
        assertEquals(T0 - 50 * MS, w);
        live.release(w);
        assertEquals(1, live.pending());
        live.release(live.watermark(List.of(vethA, vethB), T0 + 101 * MS, 100 * MS, true));
        assertEquals(0, live.pending());
    }

    @Test
    void aBusyInterfaceIsCompleteOnlyUpToItsLatestPacket() {
        LiveAnalysis live = analysis(Format.text);
        // The analysis is 5 s behind: veth-a keeps delivering packets 5 s old, its older ones still in the
        // kernel buffer. The clock must not run ahead of them, or their attempts would be decided unanswered.
        long now = T0 + 5000 * MS;
        live.add(vethA.packet(T0, tcp4("10.244.0.18", 40000, "10.244.0.19", 80, SYN, 1000, 0)));
        vethA.lastDelivery = now - MS;
        assertEquals(T0, live.watermark(List.of(vethA), now, 100 * MS, true));
        // Quiet for 200 ms, but waiting for room in the queue: its kernel buffer is full, it is not idle.
        vethA.lastDelivery = now - 200 * MS;
        vethA.handingOver = true;
        assertEquals(T0, live.watermark(List.of(vethA), now, 100 * MS, true));
        // Or idle, but the analysis has not taken all it handed over from the queue yet.
        vethA.handingOver = false;
        assertEquals(T0, live.watermark(List.of(vethA), now, 100 * MS, false));
        // Idle and drained: complete up to the window.
        assertEquals(now - 100 * MS, live.watermark(List.of(vethA), now, 100 * MS, true));
    }

    @Test
    void reclassifiedFindingsAreReportedAgain() {
        LiveAnalysis live = analysis(Format.text);
        // Two unanswered probes from one source to a target that answers someone else: lb-probe-dropped,
        // which needs the second probe (and the answer) to be known.
        live.add(vethA.packet(T0, tcp4("203.0.113.10", 50000, "10.244.0.19", 30080, SYN, 1, 0)));
        live.release(T0);
        live.tick(DECIDED);
        live.stream(DECIDED, true);
        assertTrue(out.toString().contains("no-response 203.0.113.10 -> 10.244.0.19:30080"), out.toString());
        long later = DECIDED + 100 * MS;
        live.add(vethA.packet(later, tcp4("198.51.100.7", 40000, "10.244.0.19", 30080, SYN, 5, 0)));
        live.add(vethA.packet(later + MS, tcp4("10.244.0.19", 30080, "198.51.100.7", 40000, SYN | ACK, 9, 6)));
        live.add(vethA.packet(later + 100 * MS, tcp4("203.0.113.10", 50001, "10.244.0.19", 30080, SYN, 2, 0)));
        live.release(later + 100 * MS);
        live.tick(later + 2 * HandshakeTracker.LINGER_NANOS);
        live.stream(later + 2 * HandshakeTracker.LINGER_NANOS, true);
        live.poll(later + 2 * HandshakeTracker.LINGER_NANOS);
        String last = out.toString().lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.contains("lb-probe-dropped 203.0.113.10 -> 10.244.0.19:30080 (2 attempts)")
                && last.endsWith("(was no-response)"), out.toString());
        Map<String, Double> m = scrape(metrics);
        assertEquals(1.0, m.get("pcapdiag_findings_total{namespace=\"\",node=\"node-1\",pattern=\"lb-probe-dropped\",service=\"\"}"));
        assertEquals(2.0, m.get("pcapdiag_finding_attempts{node=\"node-1\",pattern=\"lb-probe-dropped\"}"));
        assertEquals(0.0, m.get("pcapdiag_finding_attempts{node=\"node-1\",pattern=\"no-response\"}"));
        assertEquals(Pattern.LB_PROBE_DROPPED, live.findings().get(0).pattern());
    }

    /** Metric lines of the Prometheus text format, series to value. */
    static Map<String, Double> scrape(LiveMetrics metrics) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            new PrometheusTextFormatWriter(false).write(bytes, metrics.registry().scrape());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return parse(bytes.toString(StandardCharsets.UTF_8));
    }

    static Map<String, Double> parse(String text) {
        Map<String, Double> m = new TreeMap<>();
        for (String line : text.lines().toList()) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int sp = line.lastIndexOf(' ');
            m.put(line.substring(0, sp), Double.parseDouble(line.substring(sp + 1)));
        }
        return m;
    }
}
