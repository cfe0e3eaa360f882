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
 */
public record CaptureSettings(InterfacePatterns interfaces, String filter, int snaplen, int bufferSize,
                              boolean promiscuous, Path write, long count, boolean force, long rotateBytes) {
    /** Without --force and rotation (tests, and callers that never write). */
    public CaptureSettings(InterfacePatterns interfaces, String filter, int snaplen, int bufferSize, boolean promiscuous,
            Path write, long count) {
        this(interfaces, filter, snaplen, bufferSize, promiscuous, write, count, false, 0);
    }

    /** The same settings with another BPF filter. */
    public CaptureSettings withFilter(String bpf) {
        return new CaptureSettings(interfaces, bpf, snaplen, bufferSize, promiscuous, write, count, force, rotateBytes);
    }
}
