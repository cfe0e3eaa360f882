package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.Set;

/** One row of the cause table ({@link Causes}): for which patterns it is a candidate, and how it is judged. */
interface CauseRule {
    Cause cause();

    Set<Pattern> patterns();

    /** Whether it is a candidate for this finding at all, beyond its pattern (e.g. rp_filter is IPv4 only). */
    default boolean applies(Finding f) {
        return true;
    }

    CauseVerdict judge(Finding f, Context context);
}
