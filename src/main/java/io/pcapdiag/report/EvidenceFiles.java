package io.pcapdiag.report;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.FrameRef;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.rules.Finding;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code --evidence DIR}: one pcapng per listed finding holding only its packets, as they were captured,
 * each with a comment naming its role (syn, dnat-copy, syn-ack, client-rst, icmp...) and the finding, on
 * interfaces named as in the original (pcapng interface names; the capture for others). Wireshark and
 * tshark open them; the finding's display filter selects the same packets in the original capture.
 */
public final class EvidenceFiles implements Reporter {
    /** rw------- : the packets are private to whoever ran the analysis, as live's are. */
    private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rw-------");
    private final Path dir;
    private final List<Capture> captures;
    private final Reader reader;
    private final Consumer<String> said;

    /**
     * @param captures the run's captures, read again for the packets' bytes
     * @param said     where the names of the files written go, one line each
     */
    public EvidenceFiles(Path dir, List<Capture> captures, Reader reader, Consumer<String> said) {
        this.dir = dir;
        this.captures = List.copyOf(captures);
        this.reader = reader;
        this.said = said;
    }

    /** A packet kept from the original capture. */
    private record Packet(long nanos, int linkType, String iface, byte[] data, int origLen) {
    }

    @Override
    public void report(Report r) {
        try {
            Files.createDirectories(dir);
            Map<Integer, Set<Long>> wanted = new HashMap<>();
            for (Diagnosis d : r.diagnoses()) {
                for (FrameRef f : d.frames()) {
                    wanted.computeIfAbsent(f.captureIndex(), k -> new HashSet<>()).add(f.frame());
                }
            }
            Map<Integer, Map<Long, Packet>> packets = new HashMap<>();
            for (Capture c : captures) {
                Set<Long> w = wanted.get(c.index());
                if (w != null) {
                    packets.put(c.index(), read(c, w));
                }
            }
            int n = 1;
            for (Diagnosis d : r.diagnoses()) {
                Path file = dir.resolve(fileName(n, d.finding()));
                write(file, n, d, packets);
                said.accept("evidence: " + file + " (" + d.frames().size() + " packets of finding " + n + ", "
                        + d.finding().pattern().id() + ")");
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The wanted frames of a capture, copied; a capture that cannot be read again gives what it gave. */
    private Map<Long, Packet> read(Capture c, Set<Long> frames) {
        Map<Long, Packet> out = new HashMap<>();
        try (FrameSource src = reader.open(c)) {
            for (Frame f = src.next(); f != null && out.size() < frames.size(); f = src.next()) {
                if (frames.contains(f.number)) {
                    byte[] data = new byte[f.capLen];
                    System.arraycopy(f.data, f.offset, data, 0, f.capLen);
                    out.put(f.number, new Packet(f.nanos, f.linkType, f.interfaceName, data, f.origLen));
                }
            }
        } catch (CaptureException | IOException e) {
            said.accept("evidence: " + c.name() + " could not be read again in full: " + e.getMessage());
        }
        return out;
    }

    private void write(Path file, int n, Diagnosis d, Map<Integer, Map<Long, Packet>> packets) throws IOException {
        Finding f = d.finding();
        String what = "finding " + n + ": " + f.pattern().id() + " " + f.client() + " -> " + f.target()
                + (f.responder() != null ? " answered by " + f.responder() : "");
        Path tmp = temporary(file);
        try {
            packets(tmp, n, d, packets, f, what);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
    }

    /**
     * A new file beside {@code file}, private to whoever runs pcapdiag (often root, on a node), created where nothing
     * was: the evidence is written there and renamed over {@code file}. The names are predictable, so what is at
     * {@code file} may be anyone's: a symbolic link is replaced, not followed, and a file (a hard link to another's
     * among them) is replaced, not truncated, as {@code live --write} refuses both.
     */
    private static Path temporary(Path file) throws IOException {
        String prefix = "." + file.getFileName() + ".";
        try {
            return Files.createTempFile(file.getParent(), prefix, ".tmp", PosixFilePermissions.asFileAttribute(PRIVATE));
        } catch (UnsupportedOperationException e) {
            return Files.createTempFile(file.getParent(), prefix, ".tmp"); // a file system without POSIX modes
        }
    }

    private void packets(Path tmp, int n, Diagnosis d, Map<Integer, Map<Long, Packet>> packets, Finding f, String what)
            throws IOException {
        try (PcapngWriter w = new PcapngWriter(new BufferedOutputStream(Files.newOutputStream(tmp,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS)),
                "pcapdiag evidence, " + what + "; display filter: " + d.displayFilter()
                        + (d.decodeAs() == null ? "" : "; decode as: " + d.decodeAs()), "pcapdiag")) {
            Map<String, Integer> ifaces = new LinkedHashMap<>();
            List<FrameRef> frames = new ArrayList<>(d.frames());
            for (FrameRef ref : frames) {
                Packet p = packets.getOrDefault(ref.captureIndex(), Map.of()).get(ref.frame());
                if (p == null) {
                    continue; // said when the capture could not be read again
                }
                String name = p.iface() != null ? p.iface() : ref.capture();
                String key = ref.captureIndex() + "|" + name + "|" + p.linkType();
                Integer id = ifaces.get(key);
                if (id == null) {
                    id = w.iface(p.linkType(), name, "from " + ref.capture());
                    ifaces.put(key, id);
                }
                w.packet(id, p.nanos(), p.data(), p.origLen(), ref.role() + "; " + what + "; " + ref.capture() + " #" + ref.frame());
            }
        }
    }

    /** {@code 01-nat-bypass-reply-10.244.0.18-10.96.10.80_8080.pcapng}: sortable, no path separators. */
    static String fileName(int n, Finding f) {
        String name = String.format(java.util.Locale.ROOT, "%02d-%s-%s-%s.pcapng", n, f.pattern().id(), f.client(), f.target());
        return name.replaceAll("[^A-Za-z0-9._-]", "_");
    }
}
