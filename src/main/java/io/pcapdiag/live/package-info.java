/**
 * Live mode: pcap4j captures on the node's interfaces, one thread per interface, feeding the one analysis
 * thread that streams findings, keeps Prometheus metrics, posts findings as Kubernetes Events ({@code --events})
 * and reports capture drops.
 */
package io.pcapdiag.live;
