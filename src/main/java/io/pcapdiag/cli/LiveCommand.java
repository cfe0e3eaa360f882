package io.pcapdiag.cli;

import io.pcapdiag.capture.Libpcap;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.live.CaptureFilter;
import io.pcapdiag.live.CaptureSettings;
import io.pcapdiag.live.InterfacePatterns;
import io.pcapdiag.live.LiveException;
import io.pcapdiag.live.LiveMetrics;
import io.pcapdiag.live.LiveSession;
import io.pcapdiag.live.Privileges;
import io.pcapdiag.live.Units;
import io.pcapdiag.report.Format;
import io.pcapdiag.report.Reporter;
import io.pcapdiag.report.TextReporter;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pcapdiag live}: capture on the node's interfaces and report connection failures while they happen.
 * SIGINT/SIGTERM end it cleanly: capture stops, pending attempts are decided, the final report is printed
 * and the exit code is the one a normal end gives.
 */
@Command(name = "live", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = LiveCommand.Version.class,
        description = {
            "Capture on this node's interfaces (libpcap through pcap4j) and name Kubernetes service-networking failures"
                    + " while they happen: each finding is printed as soon as it is known, a summary every"
                    + " --summary-interval, and the full report when the capture ends (--duration, --count, SIGINT or SIGTERM).",
            "Only SYN, RST and FIN segments (every TCP segment with --established), DNS (UDP and TCP on port 53 and the"
                    + " cluster DNS Service's ports) and ICMP/ICMPv6 errors are captured, the headers and DNS messages only"
                    + " (--snaplen).",
            "Needs root or the CAP_NET_RAW capability, and libpcap."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:captured and reported (also after SIGINT/SIGTERM); no finding at or above --fail-on",
            "1:findings at or above --fail-on SEVERITY",
            "2:usage error",
            "3:no interface could be captured (no libpcap, no privilege, no such interface)",
            ExitCodes.INTERNAL_HELP,
            "5:standard output failed (full, or the reader of a pipe went away): capture stopped, the report went to stderr"})
public final class LiveCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    AnalysisOptions analysis;

    @Option(names = {"-i", "--interface"}, paramLabel = "IFACES", defaultValue = "any",
            description = "Interfaces: names and globs, comma-separated or repeated (eth0,cni0,'veth*'), or any"
                    + " (default: ${DEFAULT-VALUE}). Globs are matched again every --rescan-interval, so new pods'"
                    + " veths are picked up; an interface that vanishes costs a warning, not the capture.")
    List<String> interfaces;

    @Option(names = {"-w", "--write"}, paramLabel = "PATH",
            description = "Also keep the captured packets as pcap, one file per interface: PATH itself for a single"
                    + " interface name (or any); else PATH with the interface before its extension (live.pcap ->"
                    + " live.eth0.pcap), PATH/<iface>.pcap when PATH is a directory, or {if} in PATH replaced."
                    + " `pcapdiag analyze` on the files gives the live findings again.")
    Path write;

    @Option(names = "--force", negatable = false,
            description = "Overwrite --write files that exist (by default an existing file is never truncated). A symbolic"
                    + " link at a --write path is always refused; files are created mode 0600.")
    boolean force;

    @Option(names = "--write-rotate", paramLabel = "SIZE", defaultValue = "0",
            description = "Start a new --write file once one holds SIZE bytes (e.g. 100MiB): live.pcap, live.1.pcap,"
                    + " live.2.pcap... (0 = one file) (default: ${DEFAULT-VALUE}).")
    String writeRotate;

    @Option(names = {"-o", "-f", "--format"}, defaultValue = "text", paramLabel = "FORMAT",
            description = "Output: text; summary (text whose final report is the table of findings alone); jsonl (one"
                    + " JSON object per line: findings, summaries, the final report); or json (only the final report,"
                    + " one document) (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "0",
            description = "Stop after this long (30s, 5m, 1h; 0 = until SIGINT/SIGTERM) (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = {"-c", "--count"}, paramLabel = "N", defaultValue = "0",
            description = "Stop after N captured packets over all interfaces (0 = no limit).")
    long count;

    @Option(names = "--summary-interval", paramLabel = "DURATION", defaultValue = "60s",
            description = "Print a summary with capture statistics this often (0 = never) (default: ${DEFAULT-VALUE}).")
    String summaryInterval;

    @Option(names = "--metrics-port", paramLabel = "PORT", defaultValue = "0",
            description = "Serve Prometheus metrics on this port: /metrics, /ready, /-/healthy (0 = off) (default: ${DEFAULT-VALUE}).")
    int metricsPort;

    @Option(names = "--metrics-address", paramLabel = "ADDRESS", defaultValue = "0.0.0.0",
            description = "Address the metrics server binds (default: ${DEFAULT-VALUE}).")
    String metricsAddress;

    @Option(names = "--snaplen", paramLabel = "BYTES", defaultValue = "" + CaptureFilter.DEFAULT_SNAPLEN,
            description = "Bytes kept per packet: the default keeps the headers and a DNS message of EDNS0's 1232 bytes"
                    + " (200 keeps headers only) (default: ${DEFAULT-VALUE}).")
    int snaplen;

    @Option(names = "--buffer-size", paramLabel = "SIZE", defaultValue = "4MiB",
            description = "Kernel capture buffer per interface (e.g. 4MiB, 64MiB); raise it when the kernel drops"
                    + " packets (default: ${DEFAULT-VALUE}).")
    String bufferSize;

    @Option(names = "--filter", paramLabel = "BPF",
            description = "Replace the built-in capture filter (SYN/RST/FIN, DNS and ICMP errors, IPv4 and IPv6) by this"
                    + " libpcap expression.")
    String filter;

    @Option(names = "--established", negatable = false,
            description = "Capture every TCP segment, not only SYN, RST and FIN, and follow established connections: an MTU"
                    + " black hole (pmtu-blackhole), a reply that leaves un-NATed and is reset (reset-after-reply), a"
                    + " connection reset by a backend that is gone (reset-by-gone-endpoint). It costs what the node's TCP"
                    + " traffic costs: every segment of every connection reaches pcapdiag, up to --snaplen bytes each"
                    + " (more CPU; raise --buffer-size if the kernel drops). With --filter, says that the filter keeps"
                    + " every TCP segment.")
    boolean established;

    @Option(names = "--promiscuous", negatable = false,
            description = "Put the interfaces in promiscuous mode (off by default: on a bridge such as cni0 it makes the"
                    + " kernel pass forwarded frames up to the host as well, which with br_netfilter changed what pods"
                    + " received in the lab; veths and -i any see everything without it).")
    boolean promiscuous;

    @Option(names = "--rescan-interval", paramLabel = "DURATION", defaultValue = "2s",
            description = "How often to look for new interfaces matching -i (default: ${DEFAULT-VALUE}).")
    String rescanInterval;

    @Option(names = "--no-node-facts", negatable = false,
            description = "Do not read this node's facts (sysctls, addresses, bridge ports, routes, counters from /proc and"
                    + " /sys) to confirm or rule out causes; by default they are read at the start and again every 30 s.")
    boolean noNodeFacts;

    @Option(names = "--watch-cluster", paramLabel = "WHEN", defaultValue = "auto",
            description = "Watch Services, EndpointSlices, Pods, Nodes and NetworkPolicies (get/list/watch) to name what"
                    + " findings involve and judge causes: on, off, or auto = inside a pod (in-cluster service account)"
                    + " or with --kubeconfig, and not with --cluster (default: ${DEFAULT-VALUE}). An API server that does not"
                    + " answer is said once; capture goes on.")
    LiveContext.Watch watchCluster;

    @Option(names = "--events", negatable = false,
            description = "Post each new finding as a Kubernetes Event (events.k8s.io/v1) on the Service or Pod it involves"
                    + " (kubectl describe, kubectl events show it): needs the cluster watched and RBAC create on events; one"
                    + " Event per finding per 10 minutes, at most 30 a minute.")
    boolean events;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "The kubeconfig to watch the cluster with (else $KUBECONFIG, ~/.kube/config or the pod's"
                    + " service account).")
    Path kubeconfig;

    @Override
    public Integer call() throws Exception {
        io.pcapdiag.capture.Libpcap.prepareNativeDir();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CaptureSettings settings = settings();
        LiveSession.Timing timing = new LiveSession.Timing(Units.nanos("--duration", duration, false),
                Units.nanos("--summary-interval", summaryInterval, false), Units.nanos("--rescan-interval", rescanInterval, true));
        Severity failOn = analysis.failOnSeverity();
        java.util.function.Consumer<String> say = ErrLines.to(err, err);
        var options = analysis.toOptions(say);
        if (metricsPort < 0 || metricsPort > 65535) {
            throw new IllegalArgumentException("--metrics-port must be 0-65535");
        }

        // pcap4j logs every open and close at INFO through slf4j-simple; keep stderr for what users must read.
        if (System.getProperty("org.slf4j.simpleLogger.log.org.pcap4j") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.org.pcap4j", "error");
        }
        String problem = Privileges.cannotCapture();
        if (problem != null) {
            err.println("pcapdiag: " + problem);
            err.flush();
            return ExitCodes.NO_INPUT;
        }
        if (filter != null) {
            checkFilter(filter, snaplen); // a usage error, before any interface is opened
        }

        if (kubeconfig != null && !kubeconfig.toFile().canRead()) {
            throw new IllegalArgumentException("--kubeconfig " + kubeconfig + ": no such readable file");
        }
        try (LiveContext known = LiveContext.start(!noNodeFacts, analysis.node, watchCluster, kubeconfig,
                analysis.cluster != null, System.getenv(), say)) {
            List<io.pcapdiag.context.Context> all = new java.util.ArrayList<>(options.context());
            all.addAll(known.contexts());
            // The DNS Service's ports as the context knows them at the start (--cluster's snapshot, or the watched
            // cluster's index once loaded): the kernel's filter is compiled once.
            List<Integer> dnsPorts = List.copyOf(io.pcapdiag.context.Context.of(all).dnsPorts());
            if (filter == null) {
                settings = settings.withFilter(CaptureFilter.of(dnsPorts, established));
            }
            if (events && known.client() == null) {
                throw new IllegalArgumentException("--events needs the cluster watched: run it in a pod with its service"
                        + " account, or give --kubeconfig (and not --watch-cluster=off or --cluster)");
            }
            return run(out, err, settings, timing, failOn,
                    new io.pcapdiag.analysis.Analysis.Options(options.maxOpen(), options.maxFindings(), all, options.listAttempts(),
                            established),
                    known.client());
        }
    }

    private int run(PrintWriter out, PrintWriter err, CaptureSettings settings, LiveSession.Timing timing, Severity failOn,
            io.pcapdiag.analysis.Analysis.Options options, io.fabric8.kubernetes.client.KubernetesClient cluster)
            throws InterruptedException {
        String node = System.getenv("NODE_NAME");
        Runnable[] stopper = {() -> { }};
        LiveMetrics metrics = new LiveMetrics(node);
        int maxFindings = analysis.maxFindings(format);
        Reporter stdout = common.reporter(format, out, node);
        boolean[] broken = {false};
        // A closed pipe (pcapdiag live | head -1) or a full disk: stop capturing, and the final report goes to stderr.
        Reporter output = new Reporter() {
            /** Whether standard output failed; the first time it is seen, the capture is told to stop. */
            private boolean failed() {
                if (!broken[0] && out.checkError()) {
                    broken[0] = true;
                    err.println("pcapdiag: " + ExitCodes.OUTPUT_FAILED + "; stopping the capture");
                    err.flush();
                    stopper[0].run();
                }
                return broken[0];
            }

            @Override
            public void finding(io.pcapdiag.diagnosis.Diagnosis d, io.pcapdiag.rules.Pattern previous, long nowNanos) {
                if (!failed()) {
                    stdout.finding(d, previous, nowNanos);
                }
            }

            @Override
            public void summary(io.pcapdiag.report.LiveStatus p) {
                if (!failed()) {
                    stdout.summary(p);
                }
            }

            @Override
            public void tick(io.pcapdiag.report.LiveStatus p) {
                failed();
            }

            @Override
            public void report(io.pcapdiag.diagnosis.Report r) {
                if (!failed()) {
                    stdout.report(r);
                }
                if (failed()) {
                    new TextReporter(err, false).report(r);
                    err.flush();
                }
            }
        };
        java.util.function.Consumer<String> say = ErrLines.to(err, err);
        List<Reporter> reporters = new java.util.ArrayList<>(List.of(output));
        io.pcapdiag.live.FindingEvents posted = events ? new io.pcapdiag.live.FindingEvents(cluster, node, say, System::nanoTime) : null;
        if (posted != null) {
            reporters.add(posted);
        }
        LiveSession session = new LiveSession(settings, timing, options, reporters, metrics, maxFindings, say);
        stopper[0] = session::requestStop;
        if (metricsPort > 0) {
            try {
                metrics.serve(metricsAddress, metricsPort, session::capturing);
            } catch (IOException e) {
                err.println("pcapdiag: cannot serve metrics on " + metricsAddress + ":" + metricsPort + ": " + e.getMessage());
                err.flush();
                return ExitCodes.USAGE;
            }
        }

        StopOnSignal stop = new StopOnSignal(session::requestStop, 30, () -> {
            out.flush();
            err.flush();
        });
        try {
            Result result = session.run();
            stop.code(broken[0] ? ExitCodes.OUTPUT : exitCode(result, failOn));
        } catch (LiveException e) {
            err.println("pcapdiag: " + e.getMessage());
            stop.code(ExitCodes.NO_INPUT);
        } finally {
            metrics.close();
            if (posted != null) {
                posted.close();
            }
            out.flush();
            err.flush();
            stop.ended();
        }
        return stop.code();
    }

    private static int exitCode(Result result, Severity failOn) {
        if (failOn != null) {
            for (Finding f : result.findings()) {
                if (f.severity().compareTo(failOn) >= 0) {
                    return ExitCodes.FINDINGS;
                }
            }
        }
        return ExitCodes.OK;
    }

    /** {@code --filter} that libpcap cannot compile (for Ethernet, as tcpdump -d would): a usage error saying why. */
    private static void checkFilter(String bpf, int snaplen) {
        try (org.pcap4j.core.PcapHandle dead = org.pcap4j.core.Pcaps.openDead(
                org.pcap4j.packet.namednumber.DataLinkType.EN10MB, snaplen)) {
            dead.compileFilter(bpf, org.pcap4j.core.BpfProgram.BpfCompileMode.OPTIMIZE,
                    (java.net.Inet4Address) java.net.InetAddress.getByAddress(new byte[] {-1, -1, -1, -1})).free();
        } catch (org.pcap4j.core.NotOpenException e) {
            throw new IllegalStateException(e);
        } catch (org.pcap4j.core.PcapNativeException e) {
            String m = e.getMessage() == null ? "" : e.getMessage().replaceFirst("^Error occurred: ", "")
                    .replaceFirst(",? ?Return code: ?-?\\d+.*$", "").trim();
            throw new IllegalArgumentException("--filter '" + bpf + "': libpcap cannot compile it: " + m);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private CaptureSettings settings() {
        InterfacePatterns patterns = InterfacePatterns.parse(interfaces);
        if (snaplen < 64 || snaplen > 262_144) {
            throw new IllegalArgumentException("--snaplen must be 64-262144 bytes (headers need at least 64)");
        }
        if (count < 0) {
            throw new IllegalArgumentException("--count must not be negative");
        }
        long buffer = Units.bytes("--buffer-size", bufferSize);
        if (buffer < 64 * 1024 || buffer > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--buffer-size must be 64KiB-2GiB");
        }
        String bpf = filter != null ? filter : established ? CaptureFilter.ESTABLISHED : CaptureFilter.DEFAULT;
        if (write != null && write.getParent() != null && !write.getParent().toFile().isDirectory()) {
            throw new IllegalArgumentException("--write " + write + ": directory " + write.getParent() + " does not exist");
        }
        long rotate = Units.bytes("--write-rotate", writeRotate);
        if (rotate != 0 && (rotate < 64 * 1024 || write == null)) {
            throw new IllegalArgumentException(write == null ? "--write-rotate needs --write" : "--write-rotate must be 0 or at least 64KiB");
        }
        return new CaptureSettings(patterns, bpf, snaplen, (int) buffer, promiscuous, write, count, force, rotate, established);
    }


    /** {@code pcapdiag live -V}: pcapdiag's version and the libpcap it captures with, as tcpdump --version says it. */
    public static final class Version implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String pcapdiag = new Main.Version().getVersion()[0];
            io.pcapdiag.capture.Libpcap.prepareNativeDir();
            try {
                return new String[] {pcapdiag, org.pcap4j.core.Pcaps.libVersion()};
            } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
                return new String[] {pcapdiag, "libpcap: " + Libpcap.MISSING};
            }
        }
    }
}
