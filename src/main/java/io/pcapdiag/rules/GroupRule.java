package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A pattern decided for a group of attempts (one client, target and responder) from what the whole
 * capture and the context show: it re-reads groups that an {@link AttemptRule} named first.
 */
interface GroupRule extends Rule {
    /** The patterns whose groups this rule re-reads. */
    Set<Pattern> refines();

    /** The facts that make the group this pattern, or empty when it is not. */
    Optional<List<Fact>> matches(Finding f, Context context);
}
