/**
 * Runs the pipeline of DESIGN.md over one or more captures (merged in time order): source, decoder,
 * tracker, rules; and keeps the per-capture statistics the reports show.
 */
package io.pcapdiag.analysis;
