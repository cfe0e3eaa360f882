package io.pcapdiag.cli;

import io.pcapdiag.cluster.ClusterException;
import io.pcapdiag.cluster.Snapshot;
import io.pcapdiag.context.ClusterContext;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.ElsewhereNode;
import io.pcapdiag.context.NodeContext;
import io.pcapdiag.node.NodeFacts;
import io.pcapdiag.node.NodeFactsException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Consumer;

/**
 * Loads the context files an analysis is given. Kept apart from the options so that the classes behind a
 * file (the node facts' reader, the Kubernetes model) are loaded only when that file is given.
 */
final class ContextFiles {
    private ContextFiles() {
    }

    /** Problem lines printed per snapshot before they are only counted. */
    private static final int MAX_PROBLEM_LINES = 20;

    /**
     * {@code --cluster PATH}: a snapshot that is not JSON/YAML at all is a usage error with its one line; objects
     * it cannot read are said (up to 20 lines, then counted), with one line of what was loaded and skipped;
     * contradictions in it are said one by one.
     */
    static Context cluster(Path path, Consumer<String> warn) {
        Snapshot.Loaded l;
        try {
            l = Snapshot.load(path);
        } catch (ClusterException e) {
            throw new IllegalArgumentException("--cluster " + e.getMessage(), e);
        }
        for (int i = 0; i < l.problems().size() && i < MAX_PROBLEM_LINES; i++) {
            warn.accept(l.problems().get(i) + "; skipped");
        }
        if (l.problems().size() > MAX_PROBLEM_LINES) {
            warn.accept(path + ": " + (l.problems().size() - MAX_PROBLEM_LINES) + " more objects skipped (see the counts below)");
        }
        if (!l.skipped().isEmpty()) {
            StringJoiner loaded = new StringJoiner(", ").setEmptyValue("nothing");
            l.loaded().forEach((k, n) -> loaded.add(n + " " + k));
            StringJoiner skipped = new StringJoiner(", ");
            l.skipped().forEach((k, n) -> skipped.add(n + " " + k));
            warn.accept(path + ": loaded " + loaded + "; skipped " + skipped);
        }
        for (String c : l.index().contradictions()) {
            warn.accept(path + ": contradiction: " + c);
        }
        return new ClusterContext(l::index, "the cluster snapshot");
    }

    /**
     * {@code --node-facts FILE...}: the facts of the capture's node (the file that names {@code node}, else the first)
     * judge causes; the others answer only for their own node's captures ({@link ElsewhereNode}). Two files of one node
     * are a usage error.
     */
    static List<Context> nodeFacts(List<Path> files, String node, Consumer<String> warn) {
        if (files.size() <= 1) {
            return files.isEmpty() ? List.of() : List.of(nodeFacts(files.get(0), node, warn));
        }
        Map<String, NodeFacts> byNode = new LinkedHashMap<>();
        for (Path f : files) {
            NodeFacts facts = read(f, warn);
            String named = facts.nodeName().orElse(null);
            if (named == null) {
                throw new IllegalArgumentException("--node-facts " + f + ": names no node, and with several node-facts files"
                        + " each must say whose it is");
            }
            if (byNode.put(named, facts) != null) {
                throw new IllegalArgumentException("--node-facts " + f + ": a second file for " + named);
            }
        }
        String own = node != null && byNode.containsKey(node) ? node : byNode.keySet().iterator().next();
        List<Context> out = new ArrayList<>();
        out.add(new NodeContext(byNode.get(own)));
        byNode.forEach((n, facts) -> {
            if (!n.equals(own)) {
                out.add(new ElsewhereNode(n, new NodeContext(facts)));
            }
        });
        return out;
    }

    private static NodeFacts read(Path file, Consumer<String> warn) {
        NodeFacts facts;
        try {
            facts = NodeFacts.read(file);
        } catch (NodeFactsException e) {
            throw new IllegalArgumentException("--node-facts " + e.getMessage(), e);
        }
        facts.warnings().forEach(w -> warn.accept(file + ": " + w));
        return facts;
    }

    /** {@code --node-facts FILE}; a document that cannot be read is a usage error with its one-line reason. */
    static Context nodeFacts(Path file, String node, Consumer<String> warn) {
        NodeFacts facts = read(file, warn);
        String named = facts.nodeName().orElse(null);
        if (node != null && named != null && !named.equals(node)) {
            warn.accept("--node-facts " + file + " describes " + named + ", not " + node + " (--node): its facts are read as "
                    + named + "'s");
        }
        return new NodeContext(facts);
    }
}
