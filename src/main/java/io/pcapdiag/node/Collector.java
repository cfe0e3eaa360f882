package io.pcapdiag.node;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Collects the facts of the node this process runs on (its network namespace), once with {@link #collect()}, and
 * its counters as often as wanted with {@link #sample()}: a sample reads four small /proc files and sysfs not at all
 * (about 0.5 ms for 420 counters on a 2-core VM, warm).
 */
public final class Collector {
    /** Why a live run's node facts have no kube-proxy mode. */
    static final String NOT_ASKED = "kube-proxy was not asked: pcapdiag live does not send requests its capture would see";

    private final Settings settings;
    private final Path proc;
    private final Path sys;
    private final Clock clock;

    /**
     * @param nodeOption   {@code --node}, or null
     * @param env          the environment (NODE_NAME)
     * @param ip           the {@code ip} command, or unknown with why there is none
     * @param kubeProxyUrl where kube-proxy tells its mode
     */
    public record Settings(String nodeOption, Map<String, String> env, OrUnknown<Path> ip, String kubeProxyUrl) {
        /** The defaults: NODE_NAME from the environment, {@code ip} from PATH, kube-proxy on 127.0.0.1:10249. */
        public static Settings of(String nodeOption) {
            return new Settings(nodeOption, System.getenv(), IpCommand.onPath(System.getenv("PATH")), KubeProxy.DEFAULT_URL);
        }

        /**
         * For {@code pcapdiag live}: kube-proxy is not asked, because the request would be in the capture (and a
         * refused one a finding of its own on a node without kube-proxy); the cluster's kube-proxy ConfigMap tells
         * the mode when the cluster is watched.
         */
        public static Settings live(String nodeOption) {
            return new Settings(nodeOption, System.getenv(), IpCommand.onPath(System.getenv("PATH")), null);
        }
    }

    public Collector(Settings settings) {
        this(settings, Path.of("/proc"), Path.of("/sys"), Clock.systemUTC());
    }

    Collector(Settings settings, Path proc, Path sys, Clock clock) {
        this.settings = settings;
        this.proc = proc;
        this.sys = sys;
        this.clock = clock;
    }

    /** Every fact, the counters included. */
    public NodeFacts collect() {
        return collect(null);
    }

    /**
     * The end of a sample that began with {@code start}: every fact read again (a node that carried traffic
     * since knows more neighbours and forwarding entries), the counters of {@code start} and of now, so their
     * rise is the sample's; kube-proxy is not asked again (its answer stands, and a capture running now
     * should not see the request), nor the firewall's rulesets read again (live samples every 30 s, and
     * iptables-save's time grows with the node's rules, which kube-proxy keeps by the thousand).
     */
    public NodeFacts sampled(NodeFacts start) {
        NodeFacts end = collect(start);
        return new NodeFacts(end.schemaVersion(), end.nodeName(), end.nodeNameSource(), start.collectedAt(), end.kernelRelease(),
                end.ipCommand(), end.interfaces(), end.neighbours(), end.routesV4(), end.routesV6(), end.sysctls(),
                end.brNetfilterLoaded(), end.kubeProxyMode(), end.invalidDropRules(), start.counters(),
                OrUnknown.known(end.counters()), end.warnings());
    }

    /** Every fact; kube-proxy's mode and the INVALID drop rules as {@code start} has them when given, else read. */
    private NodeFacts collect(NodeFacts start) {
        Instant at = now();
        NodeName name = NodeName.resolve(settings.nodeOption(), settings.env(), proc.resolve("sys"));
        OrUnknown<Map<Integer, IpCommand.Link>> ip = settings.ip().isKnown() ? IpCommand.links(settings.ip().value())
                : settings.ip().asUnknown();
        OrUnknown<String> ipCommand = ip.isKnown() ? OrUnknown.known(settings.ip().value() + " -d -j addr show") : ip.asUnknown();
        OrUnknown<List<NodeInterface>> interfaces = Interfaces.read(sys.resolve("class/net"), ip);
        SortedMap<String, OrUnknown<String>> sysctls = Sysctls.read(proc.resolve("sys"));
        OrUnknown<String> kubeProxyMode = start != null ? start.kubeProxyMode()
                : settings.kubeProxyUrl() == null ? OrUnknown.unknown(NOT_ASKED) : KubeProxy.mode(settings.kubeProxyUrl());
        OrUnknown<List<String>> invalidDropRules = start != null ? start.invalidDropRules()
                : InvalidDrop.read(settings.env().get("PATH"));
        // Last, so that a sample's deltas do not count the collector's own request to kube-proxy.
        Counters counters = sample();
        // One reading of the table's size, so that the document does not disagree with itself.
        if (counters.conntrackCount().isKnown()) {
            sysctls.put("net.netfilter.nf_conntrack_count", counters.conntrackCount().map(String::valueOf));
        }
        return new NodeFacts(NodeFacts.SCHEMA_VERSION, name.name(), name.source(), at,
                ProcFiles.fact(proc.resolve("sys/kernel/osrelease")), ipCommand, interfaces,
                ArpTable.read(proc.resolve("net/arp")), RouteTable.readV4(proc.resolve("net/route")),
                RouteTable.readV6(proc.resolve("net/ipv6_route")), sysctls, Sysctls.brNetfilterLoaded(proc.resolve("sys")),
                kubeProxyMode, invalidDropRules, counters, OrUnknown.unknown(NodeFacts.NOT_SAMPLED), List.of());
    }

    /** The counters now: conntrack count and statistics, nstat. */
    public Counters sample() {
        Instant at = now();
        Path count = proc.resolve("sys/net/netfilter/nf_conntrack_count");
        OrUnknown<Long> conntrackCount = ProcFiles.number(count);
        if (!conntrackCount.isKnown() && !java.nio.file.Files.exists(count)) {
            conntrackCount = OrUnknown.unknown("nf_conntrack is not loaded: no " + count);
        }
        SortedMap<String, Long> nstat = new TreeMap<>();
        SortedMap<String, String> unreadable = new TreeMap<>();
        Nstat.read(proc.resolve("net"), nstat, unreadable);
        return new Counters(at, conntrackCount, ConntrackStat.read(proc.resolve("net/stat/nf_conntrack")), nstat, unreadable);
    }

    /** Milliseconds, as the document writes times. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
