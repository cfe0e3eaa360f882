package io.pcapdiag.diagnosis;

/**
 * One packet counted to a finding, and what it is there: what {@code --evidence} extracts and the finding's
 * display filter selects.
 *
 * @param capture      the capture, as the user named it
 * @param captureIndex its position on the command line
 * @param frame        the frame number in it
 * @param role         syn, syn copy, syn retransmission, dnat-copy, syn-ack, rst, client-rst, icmp; for UDP
 *                     query (or datagram), query copy, query resend, answer
 */
public record FrameRef(String capture, int captureIndex, long frame, String role) {
}
