/**
 * Reporters: render a {@link io.pcapdiag.diagnosis.Report} as text for people, JSON or JSON Lines for machines, or
 * evidence pcapng files; they compute nothing, and read nothing of the run loop's.
 */
package io.pcapdiag.report;
