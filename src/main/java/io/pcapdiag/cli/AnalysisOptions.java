package io.pcapdiag.cli;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.LbIps;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.rules.Severity;
import io.pcapdiag.track.Endpoint;
import io.pcapdiag.context.CaptureNode;
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
                    + " out the causes that depend on the node (sysctls, hairpin mode, local addresses, counters).")
    Path nodeFacts;

    @Option(names = "--node", paramLabel = "NAME",
            description = "The node the capture was taken on (else the node facts' name, else inferred from the cluster).")
    String node;

    @Option(names = "--fail-on", paramLabel = "SEVERITY", defaultValue = "none",
            description = "Exit 1 when a finding is at least this severe: warning, error or none (default: ${DEFAULT-VALUE}).")
    String failOn;

    @Option(names = "--max-open", paramLabel = "N", defaultValue = "" + Analysis.Options.DEFAULT_MAX_OPEN,
            description = "Attempts tracked at once; past it the oldest is evicted and counted (default: ${DEFAULT-VALUE}).")
    int maxOpen;

    @Option(names = "--attempts", paramLabel = "N", defaultValue = "0",
            description = "Also list the first N connection attempts one by one (capture order): who dialed what, how it"
                    + " ended, where its SYN was seen (default: ${DEFAULT-VALUE}).")
    int listAttempts;

    @Option(names = "--max-findings", paramLabel = "N",
            description = "Findings reported in full, most severe first (default: 50 in text, 1000 in JSON); the attempts of "
                    + "the rest are still counted per pattern.")
    Integer maxFindings;

    /** The bound on findings reported in full for a format whose default is {@code byDefault}. */
    int maxFindings(int byDefault) {
        if (maxFindings != null && maxFindings < 0) {
            throw new IllegalArgumentException("--max-findings must not be negative");
        }
        return maxFindings == null ? byDefault : maxFindings;
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
        if (maxOpen < 1) {
            throw new IllegalArgumentException("--max-open must be at least 1");
        }
        List<Context> context = new ArrayList<>();
        if (node != null) {
            context.add(new CaptureNode(node));
        }
        if (nodeFacts != null) {
            context.add(ContextFiles.nodeFacts(nodeFacts, node, warn));
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
        return new Analysis.Options(maxOpen, Analysis.Options.DEFAULT_MAX_FINDINGS, context, listAttempts);
    }

    /** The threshold, or null for none. */
    Severity failOnSeverity() {
        return switch (failOn.toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> null;
            case "warning" -> Severity.WARNING;
            case "error" -> Severity.ERROR;
            default -> throw new IllegalArgumentException("--fail-on takes warning, error or none, not '" + failOn + "'");
        };
    }
}
