/**
 * Diagnoses and the report: each listed finding explained once (evidence packets, what happened with what each
 * sentence rests on, the fixes), with what the run counted per capture, in the one {@link Report} every reporter reads.
 */
package io.pcapdiag.diagnosis;
