/**
 * Live mode: pcap4j captures on the node's interfaces, one thread per interface, feeding the one analysis
 * thread that streams findings, keeps Prometheus metrics and reports capture drops.
 */
package io.pcapdiag.live;
