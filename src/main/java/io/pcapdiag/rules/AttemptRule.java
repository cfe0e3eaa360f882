package io.pcapdiag.rules;

import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;

/** A pattern decided from one attempt alone, as soon as the tracker decides the attempt. */
interface AttemptRule extends Rule {
    /** The outcome every matching attempt has: rules are only asked about attempts with it. */
    Outcome outcome();

    boolean matches(Attempt a);
}
