package io.pcapdiag.rules;

import java.util.List;

/**
 * What a finding means, in words: what happened in the kernel, what the evidence itself shows, and the
 * fixes with their trade-offs.
 */
public record Explanation(String happened, List<String> observations, List<Remedy> remedies) {

    /** One way to fix it, and what it costs (null where it costs nothing worth saying). */
    public record Remedy(String fix, String tradeoff) {
    }
}
