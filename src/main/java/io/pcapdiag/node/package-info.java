/**
 * Node facts: what the node's kernel says (interfaces, bridges, neighbours, routes, sysctls, conntrack and nstat
 * counters, kube-proxy's mode) collected into one JSON document by {@code pcapdiag node-facts}, read back by
 * {@link io.pcapdiag.node.NodeFacts#read}, and sampled on demand by {@link io.pcapdiag.node.Collector} for live mode.
 *
 * <p>Everything is read from the namespace the process runs in: /proc/net and /proc/sys/net follow the network
 * namespace of the reading process, and /sys/class/net is the one sysfs was mounted for, which
 * {@code ip netns exec} remounts for the namespace. A fact that cannot be read is a {@link io.pcapdiag.node.OrUnknown}
 * that is unknown with its reason, never an error.
 */
package io.pcapdiag.node;
