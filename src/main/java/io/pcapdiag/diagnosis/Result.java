package io.pcapdiag.diagnosis;

import io.pcapdiag.context.Context;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.RankedFindings;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.util.List;
import java.util.Map;

/**
 * What an analysis found, before it is explained: per-capture summaries, the findings, and the context
 * they were judged with.
 *
 * @param captures     per input, in command-line order
 * @param findings     sorted most severe first, counted by pattern
 * @param overflow     attempts not grouped into a finding because the bound on findings was reached
 * @param outcomes     TCP connection attempts by outcome over all captures
 * @param dnsOutcomes  DNS queries by outcome
 * @param udpOutcomes  other UDP exchanges by outcome
 * @param tracker      the tracker's bound and what it had to evict
 * @param context      what was known beyond the packets when the findings were judged
 * @param citeCaptures several captures were read: references to packets name the capture
 * @param attempts     {@code --attempts N}: the first N decided attempts in capture order, else empty
 * @param attemptsNotListed decided attempts beyond those
 */
public record Result(List<CaptureSummary> captures, RankedFindings findings, Map<Pattern, Long> overflow,
                     Map<Outcome, Long> outcomes, Map<Outcome, Long> dnsOutcomes, Map<Outcome, Long> udpOutcomes,
                     TrackerStats tracker, Context context, boolean citeCaptures,
                     List<Listed> attempts, long attemptsNotListed) {

    /** An attempt {@code --attempts} lists, and the pattern of the finding it belongs to (null: none). */
    public record Listed(Attempt attempt, Pattern pattern) {
    }

    /**
     * The table's bound and use; evictions mean some attempts were not judged. Connections followed after their
     * handshake are bounded by {@code maxOpen} too; an evicted one was not followed to its end.
     */
    public record TrackerStats(long attempts, long evicted, long peakOpen, int maxOpen, long unmatchedAnswers,
                               long connectionsFollowed, long connectionsEvicted) {
    }

    /** The nodes the captures are labelled with ({@code --label FILE=NODE}). */
    public java.util.Set<String> labelledNodes() {
        java.util.Set<String> nodes = new java.util.TreeSet<>();
        for (CaptureSummary c : captures) {
            if (c.capture().node() != null) {
                nodes.add(c.capture().node());
            }
        }
        return nodes;
    }

    /** True when no input could be read at all. */
    public boolean nothingRead() {
        for (CaptureSummary c : captures) {
            if (c.opened()) {
                return false;
            }
        }
        return true;
    }
}
