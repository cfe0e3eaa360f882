package io.pcapdiag.live;

import java.nio.file.Path;

/**
 * How to capture.
 *
 * @param interfaces  what {@code -i} names
 * @param filter      the BPF filter ({@link CaptureFilter#DEFAULT} unless overridden)
 * @param snaplen     bytes kept per packet
 * @param bufferSize  kernel capture buffer per interface, bytes
 * @param promiscuous promiscuous mode; off by default because it changes what a node does: a bridge in
 *                    promiscuous mode passes frames it forwards between its ports up to the host as well
 * @param write       where to keep the filtered packets (see {@link WritePaths}), or null
 * @param count       stop after this many packets over all interfaces; 0 = no limit
 * @param force       {@code --force}: overwrite an existing {@code --write} file
 * @param rotateBytes start a new {@code --write} file past this size; 0 = never
 * @param established {@code --established}: the filter passes every TCP segment (its headers at least), not only
 *                    SYN, RST and FIN ({@link CaptureFilter#of(java.util.Collection, boolean)}; with {@code --filter},
 *                    the user's filter is trusted to). Only then may the analysis follow connections past the
 *                    handshake: without it a missing ACK is the filter's doing, not the network's
 */
public record CaptureSettings(InterfacePatterns interfaces, String filter, int snaplen, int bufferSize,
                              boolean promiscuous, Path write, long count, boolean force, long rotateBytes,
                              boolean established) {
    /** Handshake-only (no {@code --established}). */
    public CaptureSettings(InterfacePatterns interfaces, String filter, int snaplen, int bufferSize, boolean promiscuous,
            Path write, long count, boolean force, long rotateBytes) {
        this(interfaces, filter, snaplen, bufferSize, promiscuous, write, count, force, rotateBytes, false);
    }

    /** Without --force, rotation and --established (tests, and callers that never write). */
    public CaptureSettings(InterfacePatterns interfaces, String filter, int snaplen, int bufferSize, boolean promiscuous,
            Path write, long count) {
        this(interfaces, filter, snaplen, bufferSize, promiscuous, write, count, false, 0, false);
    }

    /** The same settings with another BPF filter. */
    public CaptureSettings withFilter(String bpf) {
        return new CaptureSettings(interfaces, bpf, snaplen, bufferSize, promiscuous, write, count, force, rotateBytes,
                established);
    }
}
