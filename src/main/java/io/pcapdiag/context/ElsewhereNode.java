package io.pcapdiag.context;

/**
 * Another node's facts ({@code --node-facts} given for several nodes): silent about the capture's own node, so that
 * no cause is judged on them, they answer only for a hop on their own node ({@link Context#forNode}).
 */
public final class ElsewhereNode implements Context {
    private final String node;
    private final Context facts;

    /** @param node the node {@code facts} describe */
    public ElsewhereNode(String node, Context facts) {
        this.node = node;
        this.facts = facts;
    }

    @Override
    public Context forNode(String other) {
        return node.equals(other) ? facts : Context.none();
    }
}
