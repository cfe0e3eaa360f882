package io.pcapdiag.context;

import io.pcapdiag.decode.Endpoint;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The capture's node, when nothing says it: the node every client of the capture belongs to (its pods, or
 * its own addresses), when they all belong to one. Several nodes, or none known: no answer.
 */
public final class InferredNode implements Context {
    private final CaptureFacts capture;
    private final Context others;

    /** @param others the context to ask which node an address belongs to (not including this) */
    public InferredNode(CaptureFacts capture, Context others) {
        this.capture = capture;
        this.others = others;
    }

    @Override
    public Optional<Reading> captureNode() {
        Set<String> nodes = new TreeSet<>();
        int known = 0;
        for (Endpoint c : capture.clients()) {
            Optional<String> n = others.nodeOf(c);
            if (n.isPresent()) {
                nodes.add(n.get());
                known++;
            }
        }
        if (nodes.size() != 1) {
            return Optional.empty();
        }
        String node = nodes.iterator().next();
        return Optional.of(new Reading("node", node, new Fact(Source.CLUSTER, "the capture is taken to be " + node + "'s: the "
                + (known == 1 ? "one client" : known + " clients") + " of this capture the cluster knows "
                + (known == 1 ? "is a pod or address" : "are pods or addresses") + " of " + node
                + " (inferred; --node says it)")));
    }
}
