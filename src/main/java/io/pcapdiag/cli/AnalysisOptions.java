package io.pcapdiag.cli;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.context.CaptureNode;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.LbIps;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.report.Format;
import io.pcapdiag.report.JsonReporter;
import io.pcapdiag.report.TextReporter;
import io.pcapdiag.rules.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import picocli.CommandLine.Option;

/** Options shared by offline and live analysis: bounds, cluster context, CI gating. */
public final class AnalysisOptions {
    @Option(names = "--lb-ip", paramLabel = "IP", split = ",",
            description = "A LoadBalancer ingress IP of the cluster (repeatable): probes sourced from it are recognised even "
                    + "when the capture shows nothing else of it.")
    List<String> lbIps = new ArrayList<>();

    @Option(names = "--cluster", paramLabel = "PATH",
            description = "A cluster snapshot, a file or a directory of kubectl get -o json (or YAML) output: names"
                    + " Services, pods and nodes, and confirms or rules out the causes that depend on the cluster. Write"
                    + " one with: kubectl get services,endpointslices,pods,nodes,networkpolicies -A -o json > cluster.json")
    Path cluster;

    @Option(names = "--node-facts", paramLabel = "FILE",
            description = "The capture's node as pcapdiag node-facts described it: names interfaces and confirms or rules"
                    + " out the causes that depend on the node (sysctls, hairpin mode, local addresses, counters). Give it"
                    + " once per node with captures of several nodes (--label): the first (or --node's) judges causes, each"
                    + " names the interfaces and topology of its own node's captures.")
    List<Path> nodeFacts = new ArrayList<>();

    @Option(names = "--node", paramLabel = "NAME",
            description = "The node the capture was taken on (else the node facts' name, else inferred from the cluster).")
    String node;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "none",
            description = "Exit 1 when a finding is at least this severe: info, warning, error or none (default: ${DEFAULT-VALUE}).")
    String failOn;

    @Option(names = "--max-open", paramLabel = "N",
            description = "Attempts tracked at once; past it the oldest is evicted and counted (default: "
                    + Analysis.Options.DEFAULT_MAX_OPEN + ", or what the heap holds if that is less). Each costs about "
                    + BYTES_PER_OPEN_ATTEMPT + " bytes of heap: raise it with PCAPDIAG_JAVA_OPTS=-Xmx...")
    Integer maxOpen;

    /**
     * Heap per open attempt, measured: 400,000 open attempts (a SYN flood) ran in a 144 MiB heap and not in 128 MiB;
     * 20,000 ran in 96 MiB. Rounded up, so that the bound below is one the heap really holds.
     */
    static final int BYTES_PER_OPEN_ATTEMPT = 320;
    /** Heap kept for everything else: read windows, decoder, findings, the report. */
    private static final long RESERVED_HEAP = 64L << 20;

    /** Open attempts a heap of {@code maxHeap} bytes holds beside what the rest of the analysis needs. */
    static long heapHolds(long maxHeap) {
        return Math.max(1, (maxHeap - RESERVED_HEAP) / BYTES_PER_OPEN_ATTEMPT);
    }

    /** --max-open as given, checked against the heap; without it the default, lowered to what the heap holds. */
    int maxOpen(long maxHeap) {
        long holds = heapHolds(maxHeap);
        if (maxOpen == null) {
            return (int) Math.min(Analysis.Options.DEFAULT_MAX_OPEN, holds);
        }
        if (maxOpen < 1) {
            throw new IllegalArgumentException("--max-open must be at least 1");
        }
        if (maxOpen > holds) {
            long needMiB = ((long) maxOpen * BYTES_PER_OPEN_ATTEMPT + RESERVED_HEAP + (1 << 20) - 1) >> 20;
            throw new IllegalArgumentException("--max-open " + maxOpen + " needs about " + needMiB + " MiB of heap ("
                    + BYTES_PER_OPEN_ATTEMPT + " bytes per open attempt); this JVM has " + (maxHeap >> 20)
                    + " MiB, which holds " + holds + ": lower --max-open or set PCAPDIAG_JAVA_OPTS=-Xmx" + (needMiB + 1) + "m");
        }
        return maxOpen;
    }

    @Option(names = "--attempts", paramLabel = "N", defaultValue = "0",
            description = "Also list the first N connection attempts one by one (capture order): who dialed what, how it"
                    + " ended, where its SYN was seen (default: ${DEFAULT-VALUE}).")
    int listAttempts;

    @Option(names = "--max-findings", paramLabel = "N",
            description = "Findings reported in full, most severe first (default: 50 in text and summary, 1000 in JSON); the attempts of "
                    + "the rest are still counted per pattern.")
    Integer maxFindings;

    /** The bound on findings reported in full: --max-findings, else the default of {@code format}'s report. */
    int maxFindings(Format format) {
        if (maxFindings != null && maxFindings < 0) {
            throw new IllegalArgumentException("--max-findings must not be negative");
        }
        if (maxFindings != null) {
            return maxFindings;
        }
        return format == Format.text || format == Format.summary ? TextReporter.DEFAULT_MAX_FINDINGS
                : JsonReporter.DEFAULT_MAX_FINDINGS;
    }

    /**
     * The analysis options, with the context the options name loaded; what loading notices (a newer node-facts
     * schema, facts of another node) goes to {@code warn}, one line each.
     */
    Analysis.Options toOptions(Consumer<String> warn) {
        Set<Endpoint> vips = new LinkedHashSet<>();
        for (String ip : lbIps) {
            long[] a = Ip.parse(ip);
            vips.add(Endpoint.address(a[0], a[1]));
        }
        int open = maxOpen(Runtime.getRuntime().maxMemory());
        List<Context> context = new ArrayList<>();
        if (node != null) {
            context.add(new CaptureNode(node));
        }
        if (!nodeFacts.isEmpty()) {
            // Only then: loading ContextFiles loads the node-facts classes, which analyze alone never needs.
            context.addAll(ContextFiles.nodeFacts(nodeFacts, node, warn));
        }
        if (cluster != null) {
            context.add(ContextFiles.cluster(cluster, warn));
        }
        if (!vips.isEmpty()) {
            context.add(new LbIps(vips));
        }
        if (listAttempts < 0 || listAttempts > 1_000_000) {
            throw new IllegalArgumentException("--attempts must be 0-1000000");
        }
        return new Analysis.Options(open, Analysis.Options.DEFAULT_MAX_FINDINGS, context, listAttempts);
    }

    /** The threshold, or null for none. */
    Severity failOnSeverity() {
        return switch (failOn.toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> null;
            case "info" -> Severity.INFO;
            case "warning" -> Severity.WARNING;
            case "error" -> Severity.ERROR;
            default -> throw new IllegalArgumentException("--fail-on takes info, warning, error or none, not '" + failOn + "'");
        };
    }
}
