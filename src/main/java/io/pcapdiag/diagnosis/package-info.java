/**
 * Diagnoses: each finding explained once — its evidence packets, what happened with what each sentence
 * rests on, and the fixes — for every reporter to render as it is.
 */
package io.pcapdiag.diagnosis;
