package io.pcapdiag.cli;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.NodeContext;
import io.pcapdiag.node.NodeFacts;
import io.pcapdiag.node.NodeFactsException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Loads the context files an analysis is given. Kept apart from the options so that the classes behind a
 * file (the node facts' reader, the Kubernetes model) are loaded only when that file is given.
 */
final class ContextFiles {
    private ContextFiles() {
    }

    /** {@code --node-facts FILE}; a document that cannot be read is a usage error with its one-line reason. */
    static Context nodeFacts(Path file, String node, Consumer<String> warn) {
        NodeFacts facts;
        try {
            facts = NodeFacts.read(file);
        } catch (NodeFactsException e) {
            throw new IllegalArgumentException("--node-facts " + e.getMessage(), e);
        }
        facts.warnings().forEach(w -> warn.accept(file + ": " + w));
        String named = facts.nodeName().orElse(null);
        if (node != null && named != null && !named.equals(node)) {
            warn.accept("--node-facts " + file + " describes " + named + ", not " + node + " (--node): its facts are read as "
                    + named + "'s");
        }
        return new NodeContext(facts);
    }
}
