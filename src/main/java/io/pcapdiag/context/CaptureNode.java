package io.pcapdiag.context;

import java.util.Optional;

/** {@code --node NAME}: the node the capture was taken on, as the user said. */
public final class CaptureNode implements Context {
    private final String name;

    public CaptureNode(String name) {
        this.name = name;
    }

    /** What this says is about the capture's node: for another labelled node it says nothing. */
    @Override
    public Context forNode(String node) {
        return node == null || node.equals(name) ? this : Context.none();
    }

    @Override
    public Optional<Reading> captureNode() {
        return Optional.of(new Reading("node", name, new Fact(Source.FLAG, "the capture was taken on " + name + " (--node)")));
    }
}
