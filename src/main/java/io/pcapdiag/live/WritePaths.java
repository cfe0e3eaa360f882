package io.pcapdiag.live;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where {@code --write PATH} puts each interface's packets. libpcap writes one link type per pcap file
 * and pcapdiag merges files by timestamp when it reads them back, so each interface gets its own file:
 * <ul>
 *   <li>one plain interface name (or {@code any}): PATH itself;</li>
 *   <li>PATH containing {@code {if}}: the interface name replaces it;</li>
 *   <li>PATH an existing directory: {@code PATH/<interface>.pcap};</li>
 *   <li>otherwise the interface name goes before the extension: {@code live.pcap} becomes {@code live.eth0.pcap}.</li>
 * </ul>
 * An interface that vanishes and comes back gets a new file, {@code ~2}, {@code ~3}... after its name,
 * so the first file is never overwritten.
 */
public final class WritePaths {
    private WritePaths() {
    }

    /**
     * @param generation 1 for the first capture on {@code device} in this run, 2 after it came back, ...
     */
    public static Path of(Path write, boolean single, String device, int generation) {
        String label = generation <= 1 ? device : device + "~" + generation;
        String text = write.toString();
        if (text.contains("{if}")) {
            return Path.of(text.replace("{if}", label));
        }
        if (Files.isDirectory(write)) {
            return write.resolve(label + ".pcap");
        }
        if (single && generation <= 1) {
            return write;
        }
        String name = write.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String file = dot > 0 ? name.substring(0, dot) + "." + label + name.substring(dot) : name + "." + label;
        Path parent = write.getParent();
        return parent == null ? Path.of(file) : parent.resolve(file);
    }

    /** The name the analysis gives a capture: the interface, with {@code ~N} when it came back. */
    public static String captureName(String device, int generation) {
        return generation <= 1 ? device : device + "~" + generation;
    }
}
