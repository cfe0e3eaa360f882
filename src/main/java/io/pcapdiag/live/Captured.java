package io.pcapdiag.live;

/**
 * One packet handed from a capture thread to the analysis thread. The bytes are the capture thread's own
 * copy (pcap4j copies them out of libpcap's ring for every packet), so nothing is shared with libpcap.
 *
 * @param source  the interface capture it came from
 * @param nanos   kernel timestamp, nanoseconds since the epoch (UTC)
 * @param data    the captured bytes (at most the snap length)
 * @param origLen the packet's length on the wire
 * @param number  1-based position in that interface's capture, = the frame number in its {@code --write} file
 */
record Captured(PacketSource source, long nanos, byte[] data, int origLen, long number) {
}
