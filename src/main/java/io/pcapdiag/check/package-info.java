/**
 * {@code pcapdiag check}: captures with baselines beside them, analysed again and compared on the fields that
 * are a verdict (pattern, endpoints, counts, names, causes), never on times, frames or paths.
 */
package io.pcapdiag.check;
