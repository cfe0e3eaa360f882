package io.pcapdiag.live;

import io.pcapdiag.context.Ref;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.report.LiveStatus;
import io.pcapdiag.report.Reporter;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Outcome;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.Closeable;
import java.io.IOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Prometheus metrics of a live run, through the official client. Every metric carries {@code node} when
 * the environment names the node (NODE_NAME, set from the downward API in the DaemonSet). A reporter: it
 * follows the run's totals ({@link #tick}) and the findings as they are reported, on the analysis
 * thread; the HTTP server only reads them.
 *
 * <pre>
 * pcapdiag_attempts_total{outcome}                  connection attempts decided, by outcome
 * pcapdiag_findings_total{pattern,namespace,service} findings reported (new, or reclassified), by pattern and
 *                                                   target Service (empty when the context does not name it)
 * pcapdiag_connect_duration_seconds{namespace,service} histogram: first SYN to SYN-ACK of answered attempts
 * pcapdiag_dns_duration_seconds{namespace,service} histogram: a DNS query's first send to the first answer from the
 *                                                   address:port it dialed, by DNS Service (as above)
 * pcapdiag_dns_queries_total{namespace,service}    DNS queries decided (answered, unanswered, rejected, bypassed), by
 *                                                   DNS Service
 * pcapdiag_dns_failures_total{namespace,service,failure} DNS queries that failed, by DNS Service and how: the
 *                                                   answer's rcode (nxdomain, servfail, refused, other-rcode), or
 *                                                   no usable answer (unanswered, rejected, bypassed)
 * pcapdiag_label_overflow_total                     observations whose Service went beyond the first MAX_SERVICES
 *                                                   and were counted under service="_other"
 * pcapdiag_finding_attempts{pattern}                attempts in the current findings, by pattern
 * pcapdiag_capture_packets_total{interface}         packets that passed the filter and were analysed
 * pcapdiag_capture_received_total{interface}        libpcap ps_recv: packets the filter accepted
 * pcapdiag_capture_dropped_total{interface,by}      by="kernel" (buffer full) or by="interface" (NIC/driver)
 * pcapdiag_capture_interfaces                       interfaces capturing now
 * </pre>
 */
public final class LiveMetrics implements Reporter, Closeable {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter attempts;
    private final Counter findings;
    private final Gauge findingAttempts;
    private final Counter packets;
    private final Counter received;
    private final Counter dropped;
    private final Gauge interfaces;
    private final io.prometheus.metrics.core.metrics.Histogram connect;
    private final Counter untimed;
    private final io.prometheus.metrics.core.metrics.Histogram dnsDuration;
    private final Counter dnsQueries;
    private final Counter dnsFailures;
    private final Counter labelOverflow;
    /** Services given a label of their own so far; past {@link #MAX_SERVICES} they share "_other". */
    private final java.util.Set<String> services = new java.util.HashSet<>();
    /** Distinct Service label values: Prometheus keeps a series per value, so their number is bounded. */
    static final int MAX_SERVICES = 100;
    static final String OTHER = "_other";
    private long untimedSeen;
    private final EnumMap<Outcome, CounterDataPoint> byOutcome = new EnumMap<>(Outcome.class);
    /** What the counters were last told, so each tick adds what grew. */
    private final EnumMap<Outcome, Long> outcomesSeen = new EnumMap<>(Outcome.class);
    private final Map<String, InterfaceStatus> interfacesSeen = new HashMap<>();
    private MetricsServer server;

    /** @param node the node name, or null outside a cluster */
    public LiveMetrics(String node) {
        Labels constant = node == null || node.isBlank() ? Labels.EMPTY : Labels.of("node", node);
        attempts = Counter.builder().name("pcapdiag_attempts").constLabels(constant)
                .help("TCP connection attempts decided, by outcome").labelNames("outcome").register(registry);
        findings = Counter.builder().name("pcapdiag_findings").constLabels(constant)
                .help("Findings reported (a new finding, or one reclassified), by pattern and target Service (empty"
                        + " when the context does not name it)").labelNames("pattern", "namespace", "service")
                .register(registry);
        connect = io.prometheus.metrics.core.metrics.Histogram.builder().name("pcapdiag_connect_duration_seconds")
                .constLabels(constant).unit(io.prometheus.metrics.model.snapshots.Unit.SECONDS)
                .help("Time from a connection attempt's first SYN to the target's SYN-ACK, by target Service (empty"
                        + " when the context does not name it); retransmitted SYNs show as the client's 1 s, 3 s timeouts")
                .classicUpperBounds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
                .labelNames("namespace", "service").register(registry);
        dnsDuration = io.prometheus.metrics.core.metrics.Histogram.builder().name("pcapdiag_dns_duration_seconds")
                .constLabels(constant).unit(io.prometheus.metrics.model.snapshots.Unit.SECONDS)
                .help("Time from a DNS query's first send to the first answer from the address:port it dialed, by DNS"
                        + " Service (empty when the context does not name it); a resolver's re-send after its 5 s timeout"
                        + " shows as 5 s")
                .classicUpperBounds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
                .labelNames("namespace", "service").register(registry);
        dnsQueries = Counter.builder().name("pcapdiag_dns_queries").constLabels(constant)
                .help("DNS queries decided (answered, unanswered, rejected by an ICMP error, or answered only from another"
                        + " address), by DNS Service (empty when the context does not name it)")
                .labelNames("namespace", "service").register(registry);
        dnsFailures = Counter.builder().name("pcapdiag_dns_failures").constLabels(constant)
                .help("DNS queries that failed, by DNS Service (empty when the context does not name it) and how: the"
                        + " answer's rcode (nxdomain, servfail, refused, other-rcode), or no usable answer (unanswered,"
                        + " rejected by an ICMP error, bypassed: answered only from another address)")
                .labelNames("namespace", "service", "failure").register(registry);
        untimed = Counter.builder().name("pcapdiag_connect_untimed").constLabels(constant)
                .help("Answered attempts whose connect time was not timed (a burst beyond what one tick keeps)").register(registry);
        labelOverflow = Counter.builder().name("pcapdiag_label_overflow").constLabels(constant)
                .help("Observations whose target Service exceeded the bound on distinct Service labels (counted under"
                        + " service=\"_other\")").register(registry);
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
            findings.initLabelValues(p.id(), "", "");
            findingAttempts.labelValues(p.id()).set(0);
        }
        dnsQueries.initLabelValues("", "");
        for (String f : DNS_FAILURES) {
            dnsFailures.initLabelValues("", "", f);
        }
    }

    /** The values of pcapdiag_dns_failures_total's {@code failure} label: a fixed set, so the label stays bounded. */
    static final java.util.List<String> DNS_FAILURES = java.util.List.of("nxdomain", "servfail", "refused", "other-rcode",
            "unanswered", "rejected", "bypassed");

    /**
     * How a DNS query failed, as pcapdiag_dns_failures_total's {@code failure} label says it, or null when it did not
     * (answered with NOERROR) or is not decided yet (pending, evicted: never a finding, never a failure).
     *
     * @param rcode the answer's rcode (RFC 1035 4.1.1 and RFC 6891's extended bits), -1 when none
     */
    static String dnsFailure(Outcome outcome, int rcode) {
        return switch (outcome) {
            case ANSWERED -> switch (rcode) {
                case -1, 0 -> null;
                case 2 -> "servfail";
                case 3 -> "nxdomain";
                case 5 -> "refused";
                default -> "other-rcode";
            };
            case UNANSWERED -> "unanswered";
            case REJECTED -> "rejected";
            case BYPASSED -> "bypassed";
            case REFUSED, PENDING, EVICTED -> null;
        };
    }

    /**
     * A DNS query the tracker decided, on the analysis thread: its answer time goes into the DNS Service's histogram,
     * a failure into its counter. The Service's label values are bounded as the connect times' are (one set of them).
     *
     * @param namespace the dialed DNS Service's namespace, or "" when the context does not name it
     * @param service   its name, or ""
     * @param nanos     first send to the dialed address's first answer, -1 when none
     */
    public void dns(String namespace, String service, Outcome outcome, int rcode, long nanos) {
        if (outcome == Outcome.PENDING || outcome == Outcome.EVICTED || outcome == Outcome.REFUSED) {
            return; // undecided, or not a DNS query's outcome (a RST answers TCP)
        }
        String failure = dnsFailure(outcome, rcode);
        String[] ns = service(namespace, service);
        dnsQueries.labelValues(ns[0], ns[1]).inc();
        if (outcome == Outcome.ANSWERED && nanos >= 0) {
            dnsDuration.labelValues(ns[0], ns[1]).observe(nanos / 1e9);
        }
        if (failure != null) {
            dnsFailures.labelValues(ns[0], ns[1], failure).inc();
        }
    }

    public PrometheusRegistry registry() {
        return registry;
    }

    @Override
    public void finding(Diagnosis d, Pattern previous, long nowNanos) {
        boolean svc = d.target() != null && Ref.SERVICE.equals(d.target().kind());
        String[] ns = service(svc ? d.target().namespace() : "", svc ? d.target().name() : "");
        findings.labelValues(d.finding().pattern().id(), ns[0], ns[1]).inc();
    }

    /** The (namespace, service) label values for a Service: its own among the first {@link #MAX_SERVICES}, else "_other". */
    private String[] service(String namespace, String name) {
        if (name.isEmpty()) {
            return new String[] {"", ""};
        }
        String key = namespace + "/" + name;
        if (services.contains(key) || services.size() < MAX_SERVICES && services.add(key)) {
            return new String[] {namespace, name};
        }
        labelOverflow.inc();
        return new String[] {OTHER, OTHER};
    }

    @Override
    public void tick(LiveStatus p) {
        p.outcomes().forEach((o, n) -> {
            long grew = n - outcomesSeen.getOrDefault(o, 0L);
            if (grew > 0) {
                byOutcome.get(o).inc(grew);
                outcomesSeen.put(o, n);
            }
        });
        p.attempts().forEach((pattern, n) -> findingAttempts.labelValues(pattern.id()).set(n));
        for (LiveStatus.Connect c : p.connects()) {
            String[] ns = service(c.namespace(), c.service());
            connect.labelValues(ns[0], ns[1]).observe(c.nanos() / 1e9);
        }
        if (p.untimed() > untimedSeen) {
            untimed.inc(p.untimed() - untimedSeen);
            untimedSeen = p.untimed();
        }
        int capturing = 0;
        for (InterfaceStatus i : p.interfaces()) {
            InterfaceStatus before = interfacesSeen.put(i.capture(), i);
            if (before == null) {
                // A new interface: its series exist from the start, at 0, so rate() and absent() work.
                packets.initLabelValues(i.device());
                received.initLabelValues(i.device());
                dropped.initLabelValues(i.device(), "kernel");
                dropped.initLabelValues(i.device(), "interface");
            }
            add(packets.labelValues(i.device()), i.packets() - (before == null ? 0 : before.packets()));
            add(received.labelValues(i.device()), i.received() - (before == null ? 0 : before.received()));
            add(dropped.labelValues(i.device(), "kernel"),
                    i.droppedByKernel() - (before == null ? 0 : before.droppedByKernel()));
            add(dropped.labelValues(i.device(), "interface"),
                    i.droppedByInterface() - (before == null ? 0 : before.droppedByInterface()));
            if (i.gone() == null) {
                capturing++;
            }
        }
        interfaces.set(capturing);
    }

    private static void add(CounterDataPoint c, long grew) {
        if (grew > 0) {
            c.inc(grew);
        }
    }

    /** Capture ended: no interface is being captured any more. */
    @Override
    public void report(Report r) {
        interfaces.set(0);
    }

    /**
     * Serves {@code /metrics}, {@code /ready} (200 while at least one interface is being captured, 503 otherwise) and
     * {@code /-/healthy} on {@code address:port}, with the bounds of {@link MetricsServer}.
     */
    public void serve(String address, int port, BooleanSupplier ready) throws IOException {
        server = new MetricsServer(address, port, registry, ready);
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
