package io.pcapdiag.diagnosis;

/**
 * How one node's capture clock relates to the reference node's, estimated from the attempts both captured.
 *
 * @param node      the node whose captures are shifted
 * @param reference the node whose clock the others are aligned to
 * @param nanos     what is added to the node's timestamps
 * @param matched   attempts seen by both, the estimate's basis
 */
public record ClockOffset(String node, String reference, long nanos, int matched) {
}
