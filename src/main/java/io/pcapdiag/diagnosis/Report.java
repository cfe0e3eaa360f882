package io.pcapdiag.diagnosis;

import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.RankedFindings;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The final report every reporter renders: the result's counts, the first findings diagnosed in full,
 * and the attempts of the rest counted per pattern.
 *
 * @param result     the analysis result
 * @param diagnoses  the first {@code maxFindings} findings, explained
 * @param notListed  per pattern, attempts of findings beyond {@code maxFindings} or beyond the bound on
 *                   distinct findings: with the listed findings they account for every attempt (all patterns)
 * @param listLimit  the bound that was applied ({@code --max-findings})
 * @param live       for a live run, its interfaces and times; null offline
 * @param attempts   {@code --attempts N}: the first N attempts in capture order, else empty
 * @param concern    what {@code --service}, {@code --pod}, {@code --host} asked about; {@link Concern#ALL} without them.
 *                   The diagnoses are of the findings that concern it; {@code notListed} counts the others' attempts too
 * @param concerned  how many findings concern it (all of them without those options), listed or not
 */
public record Report(Result result, List<Diagnosis> diagnoses, Map<Pattern, Long> notListed, int listLimit, Live live,
                     List<AttemptView> attempts, Concern concern, int concerned) {
    /**
     * What a live run adds.
     *
     * @param startNanos when capture started
     * @param endNanos   when it ended
     * @param interfaces every interface, in the order they were opened
     */
    public record Live(long startNanos, long endNanos, List<InterfaceStatus> interfaces) {
    }

    /** Diagnoses the first {@code maxFindings} findings of {@code r}; only those are explained. */
    public static Report of(Result r, int maxFindings, Live live) {
        return of(r, maxFindings, live, Concern.ALL);
    }

    /** Diagnoses the first {@code maxFindings} findings of {@code r} that concern {@code concern}; only those are explained. */
    public static Report of(Result r, int maxFindings, Live live, Concern concern) {
        Diagnose diagnose = new Diagnose(r.context(), r.citeCaptures(), r.labelledNodes());
        RankedFindings all = r.findings();
        // Without a concern only the first findings are put in order; with one, all are read to count those it keeps.
        List<Finding> kept = concern.all() ? all : all.stream().filter(f -> concern.concerns(f, r.context())).toList();
        List<Finding> first = kept.subList(0, Math.min(maxFindings, kept.size()));
        // Only the listed findings are explained; the others are counted from the patterns' totals.
        Map<Pattern, Long> notListed = new EnumMap<>(Pattern.class);
        for (Pattern p : Pattern.values()) {
            notListed.put(p, all.attempts(p) + r.overflow().getOrDefault(p, 0L));
        }
        first.forEach(f -> notListed.merge(f.pattern(), -f.attempts(), Long::sum));
        List<Diagnosis> listed = first.stream().map(diagnose::of).toList();
        List<AttemptView> attempts = r.attempts().stream().map(l -> diagnose.attempt(l.attempt(), l.pattern())).toList();
        return new Report(r, listed, notListed, maxFindings, live, attempts, concern, kept.size());
    }

    /** Findings in all, listed or not. */
    public int findingCount() {
        return result.findings().size();
    }
}
