package io.pcapdiag.report;

import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.rules.Pattern;

/**
 * Renders diagnoses: text, JSON, JSON Lines, metrics. Reporters compute and explain nothing: all they
 * say comes from the {@link Diagnosis diagnoses} and counts they are given.
 */
public interface Reporter {
    /** Live: a finding appeared, or its pattern changed from {@code previous} (null when it is new). */
    default void finding(Diagnosis d, Pattern previous, long nowNanos) {
    }

    /** Live: a periodic summary (every --summary-interval). */
    default void summary(LiveStatus s) {
    }

    /** Live: the counters moved on (every tick: metrics follow them). */
    default void tick(LiveStatus s) {
    }

    /** The final report. */
    void report(Report r);
}
