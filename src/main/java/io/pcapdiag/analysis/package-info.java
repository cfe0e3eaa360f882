/**
 * The run loop: one or more captures read (merged in time order), counted, decoded and tracked, on one thread or two,
 * and the findings ranked into a {@link io.pcapdiag.diagnosis.Result} when the capture ends or a live run asks.
 */
package io.pcapdiag.analysis;
