/**
 * Capture sources: read frames (timestamp, link type, captured bytes, original length, capture) from
 * pcap/pcapng files, stdin or pcap4j, and never interpret the bytes they deliver.
 */
package io.pcapdiag.capture;
