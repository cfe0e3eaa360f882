package io.pcapdiag.causes;

import io.pcapdiag.context.Fact;
import java.util.List;

/**
 * One candidate cause of a finding, judged.
 *
 * @param cause   which
 * @param verdict how it stands
 * @param facts   the facts that decided the verdict, each naming its source (none when unknown)
 * @param fix     commands to paste that fix it, with the finding's real names; empty when contradicted
 */
public record CauseVerdict(Cause cause, Verdict verdict, List<Fact> facts, List<String> fix) {
    public CauseVerdict {
        facts = List.copyOf(facts);
        fix = verdict == Verdict.CONTRADICTED ? List.of() : List.copyOf(fix);
    }

    static CauseVerdict unknown(Cause cause, List<String> fix) {
        return new CauseVerdict(cause, Verdict.UNKNOWN, List.of(), fix);
    }
}
