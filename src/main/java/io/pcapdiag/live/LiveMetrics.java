package io.pcapdiag.live;

import com.sun.net.httpserver.HttpExchange;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Outcome;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Prometheus metrics of a live run, through the official client. Every metric carries {@code node} when
 * the environment names the node (NODE_NAME, set from the downward API in the DaemonSet). Counters are
 * updated on the analysis thread; the HTTP server only reads them.
 *
 * <pre>
 * pcapdiag_attempts_total{outcome}                  connection attempts decided, by outcome
 * pcapdiag_findings_total{pattern}                  findings reported (new, or reclassified), by pattern
 * pcapdiag_finding_attempts{pattern}                attempts in the current findings, by pattern
 * pcapdiag_capture_packets_total{interface}         packets that passed the filter and were analysed
 * pcapdiag_capture_received_total{interface}        libpcap ps_recv: packets the filter accepted
 * pcapdiag_capture_dropped_total{interface,by}      by="kernel" (buffer full) or by="interface" (NIC/driver)
 * pcapdiag_capture_interfaces                       interfaces capturing now
 * </pre>
 */
public final class LiveMetrics implements Closeable {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter attempts;
    private final Counter findings;
    private final Gauge findingAttempts;
    private final Counter packets;
    private final Counter received;
    private final Counter dropped;
    private final Gauge interfaces;
    private final EnumMap<Outcome, CounterDataPoint> byOutcome = new EnumMap<>(Outcome.class);
    private HTTPServer server;

    /** @param node the node name, or null outside a cluster */
    public LiveMetrics(String node) {
        Labels constant = node == null || node.isBlank() ? Labels.EMPTY : Labels.of("node", node);
        attempts = Counter.builder().name("pcapdiag_attempts").constLabels(constant)
                .help("TCP connection attempts decided, by outcome").labelNames("outcome").register(registry);
        findings = Counter.builder().name("pcapdiag_findings").constLabels(constant)
                .help("Findings reported (a new finding, or one reclassified), by pattern").labelNames("pattern")
                .register(registry);
        findingAttempts = Gauge.builder().name("pcapdiag_finding_attempts").constLabels(constant)
                .help("Connection attempts in the current findings, by pattern").labelNames("pattern").register(registry);
        packets = Counter.builder().name("pcapdiag_capture_packets").constLabels(constant)
                .help("Packets that passed the capture filter and were analysed").labelNames("interface")
                .register(registry);
        received = Counter.builder().name("pcapdiag_capture_received").constLabels(constant)
                .help("Packets the capture filter accepted, as libpcap counts them (ps_recv)").labelNames("interface")
                .register(registry);
        dropped = Counter.builder().name("pcapdiag_capture_dropped").constLabels(constant)
                .help("Packets lost to the capture: by=kernel when the capture buffer was full (ps_drop), "
                        + "by=interface when the interface dropped them (ps_ifdrop)")
                .labelNames("interface", "by").register(registry);
        interfaces = Gauge.builder().name("pcapdiag_capture_interfaces").constLabels(constant)
                .help("Interfaces being captured now").register(registry);
        for (Outcome o : Outcome.values()) {
            byOutcome.put(o, attempts.labelValues(o.id()));
        }
        for (Pattern p : Pattern.values()) {
            findings.initLabelValues(p.id());
            findingAttempts.labelValues(p.id()).set(0);
        }
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    void attempt(Outcome o) {
        byOutcome.get(o).inc();
    }

    void findingReported(Pattern p) {
        findings.labelValues(p.id()).inc();
    }

    /** Sets the per-pattern attempt gauges from the current findings. */
    void findings(List<Finding> current) {
        Map<Pattern, Long> sums = new EnumMap<>(Pattern.class);
        for (Pattern p : Pattern.values()) {
            sums.put(p, 0L);
        }
        for (Finding f : current) {
            sums.merge(f.pattern(), f.attempts(), Long::sum);
        }
        sums.forEach((p, n) -> findingAttempts.labelValues(p.id()).set(n));
    }

    /** Adds what an interface's counters grew by since the last call. */
    void capture(String device, long newPackets, CaptureStats delta) {
        if (newPackets > 0) {
            packets.labelValues(device).inc(newPackets);
        }
        if (delta.received() > 0) {
            received.labelValues(device).inc(delta.received());
        }
        if (delta.droppedByKernel() > 0) {
            dropped.labelValues(device, "kernel").inc(delta.droppedByKernel());
        }
        if (delta.droppedByInterface() > 0) {
            dropped.labelValues(device, "interface").inc(delta.droppedByInterface());
        }
    }

    /** A new interface: its series exist from the start, at 0, so rate() and absent() work. */
    void interfaceOpened(String device) {
        packets.initLabelValues(device);
        received.initLabelValues(device);
        dropped.initLabelValues(device, "kernel");
        dropped.initLabelValues(device, "interface");
    }

    void interfaces(int n) {
        interfaces.set(n);
    }

    /**
     * Serves {@code /metrics} (and the client's {@code /-/healthy}) on {@code address:port}, plus
     * {@code /ready}: 200 while at least one interface is being captured, 503 otherwise.
     */
    public void serve(String address, int port, BooleanSupplier ready) throws IOException {
        server = HTTPServer.builder().hostname(address).port(port).registry(registry)
                .defaultHandler(exchange -> readiness(exchange, ready)).buildAndStart();
    }

    /** The port the server listens on (the real one when 0 asked for any free port). */
    public int port() {
        return server.getPort();
    }

    private static void readiness(HttpExchange exchange, BooleanSupplier ready) throws IOException {
        String path = exchange.getRequestURI().getPath();
        int code;
        String body;
        if ("/ready".equals(path)) {
            boolean ok = ready.getAsBoolean();
            code = ok ? 200 : 503;
            body = ok ? "capturing\n" : "no interface is being captured\n";
        } else if ("/".equals(path)) {
            code = 200;
            body = "pcapdiag live: /metrics, /ready, /-/healthy\n";
        } else {
            code = 404;
            body = "not found\n";
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(code, b.length);
        try (OutputStream os = exchange.getResponseBody()) {
            os.write(b);
        }
    }

    @Override
    public void close() {
        if (server != null) {
            server.stop();
            server = null;
        }
    }
}
