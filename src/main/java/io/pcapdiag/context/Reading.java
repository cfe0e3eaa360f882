package io.pcapdiag.context;

/**
 * A value the context read and the fact that states it, e.g. sysctl {@code net.bridge.bridge-nf-call-iptables}
 * = "0" (node: "net.bridge.bridge-nf-call-iptables = 0 on node-a").
 *
 * @param subject what was read: the sysctl's key, the interface, the counter, the Service
 * @param value   its value; null when the thing does not exist (a sysctl of a module not loaded, an
 *                address that is none of the node's)
 * @param fact    the sentence, with its source
 */
public record Reading(String subject, String value, Fact fact) {
}
