/**
 * {@code pcapdiag collect}: one bundle from a node (its capture, its facts at the start and the end, the cluster
 * snapshot) with a manifest of what it holds and what could not be taken; and that bundle read back, for analyze.
 */
package io.pcapdiag.collect;
