package io.pcapdiag.diagnosis;

import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import java.util.List;

/**
 * A finding, explained once for every reporter: its evidence packets and its explanation.
 *
 * @param finding      the group of attempts and what they share
 * @param evidence     the packets of its first attempt, in the order of the story
 * @param explanation  what happened, what it rests on, how to check and fix it
 * @param citeCaptures the run read several captures: references to packets name the capture
 */
public record Diagnosis(Finding finding, List<EvidencePacket> evidence, Explanation explanation, boolean citeCaptures) {
    public Diagnosis {
        evidence = List.copyOf(evidence);
    }
}
