package io.pcapdiag.rules;

import io.pcapdiag.context.Context;

/** One row of the pattern table ({@link Rules}): its signature, in a subinterface, and what it means. */
public interface Rule {
    Pattern pattern();

    /**
     * What a finding of this pattern means, from its own packets and the facts that decided it; {@code judged} says how
     * its causes stand, so that likely readings and checks leave out what the context ruled out or answered.
     */
    Explanation explain(Finding f, Context context, Judged judged);
}
