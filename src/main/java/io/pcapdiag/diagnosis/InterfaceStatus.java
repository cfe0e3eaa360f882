package io.pcapdiag.diagnosis;

/**
 * What one interface capture saw, for summaries and the final report.
 *
 * @param capture            the name evidence uses (the interface, {@code ~N} when it came back)
 * @param device             the interface
 * @param linkType           tcpdump's name of its link type
 * @param packets            packets analysed
 * @param truncated          packets cut before a header the analysis needed
 * @param malformed          packets with a nonsensical header
 * @param received           libpcap: packets the filter accepted
 * @param droppedByKernel    libpcap: lost because the capture buffer was full
 * @param droppedByInterface libpcap: dropped by the interface
 * @param file               its {@code --write} file, or null
 * @param gone               why its capture ended before the run did (the interface vanished), or null
 */
public record InterfaceStatus(String capture, String device, String linkType, long packets, long truncated,
                              long malformed, long received, long droppedByKernel, long droppedByInterface,
                              String file, String gone) {
}
