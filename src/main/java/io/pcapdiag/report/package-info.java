/**
 * Reporters: turn a {@link io.pcapdiag.analysis.Result} into text for people or JSON for machines.
 * They only consume results; the JSON reporter has its own snake_case DTOs.
 */
package io.pcapdiag.report;
