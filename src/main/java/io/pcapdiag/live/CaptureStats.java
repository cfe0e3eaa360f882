package io.pcapdiag.live;

/**
 * libpcap's counters for one interface ({@code pcap_stats}). On Linux: {@code received} counts packets
 * that passed the filter, {@code droppedByKernel} those the kernel had to drop because the capture buffer
 * was full (pcapdiag fell behind), {@code droppedByInterface} what the interface itself dropped
 * (its rx_dropped since the capture started). Any drop means the picture is incomplete.
 */
public record CaptureStats(long received, long droppedByKernel, long droppedByInterface) {
    public static final CaptureStats NONE = new CaptureStats(0, 0, 0);
}
