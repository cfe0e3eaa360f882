package io.pcapdiag.rules;

import java.util.List;

/**
 * What a finding means, in words, each sentence with what it rests on ({@link Statement}).
 *
 * @param story        what happened: seen, known, cited and likely, in the order they are told
 * @param observations further details the packets show (TTL, timing, MACs, retransmissions)
 * @param checks       commands that confirm or rule out the likely cause on the node or cluster
 * @param remedies     ways to fix it, with what each costs
 */
public record Explanation(List<Statement> story, List<Statement> observations, List<String> checks,
                          List<Remedy> remedies) {
    public Explanation {
        story = List.copyOf(story);
        observations = List.copyOf(observations);
        checks = List.copyOf(checks);
        remedies = List.copyOf(remedies);
    }

    /**
     * One way to fix it, and what it costs (null where it costs nothing worth saying).
     *
     * @param cause the id of the cause it fixes, or null when it fixes none in particular: reports rank it by that
     *              cause's verdict and never offer it for a contradicted one
     */
    public record Remedy(String fix, String tradeoff, String cause) {
        public Remedy(String fix, String tradeoff) {
            this(fix, tradeoff, null);
        }
    }
}
