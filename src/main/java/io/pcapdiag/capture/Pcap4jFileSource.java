package io.pcapdiag.capture;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.util.concurrent.TimeoutException;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;

/**
 * Reads a capture file through libpcap (pcap4j): {@code --reader pcap4j}. Slower than the built-in
 * reader, and libpcap stops at the first corrupt record and reports no byte offset; it is here as the
 * reference implementation the built-in reader is checked against.
 */
public final class Pcap4jFileSource implements FrameSource {
    private final Capture capture;
    private final PcapHandle handle;
    private final Frame frame = new Frame();
    private final ReadStats stats = new ReadStats();
    private final int linkType;
    private boolean pcapng;
    private java.util.function.Consumer<CaptureException> problems = e -> { };

    private Pcap4jFileSource(Capture capture, PcapHandle handle) {
        this.capture = capture;
        this.handle = handle;
        this.linkType = handle.getDlt().value();
        frame.capture = capture;
        frame.linkType = linkType;
    }

    public static FrameSource open(Capture capture) throws CaptureException {
        String name = capture.name();
        if (!"-".equals(name)) {
            Path p = Path.of(name);
            if (Files.isDirectory(p)) {
                throw new CaptureException(name, -1, "is a directory, not a capture file");
            }
            if (!Files.exists(p)) {
                throw new CaptureException(name, -1, "no such file");
            }
        }
        Libpcap.prepareNativeDir();
        try {
            PcapHandle handle = Pcaps.openOffline(name, PcapHandle.TimestampPrecision.NANO);
            Pcap4jFileSource source = new Pcap4jFileSource(capture, handle);
            source.pcapng = !"-".equals(name) && startsWithPcapngMagic(Path.of(name));
            return source;
        } catch (PcapNativeException e) {
            throw new CaptureException(name, -1, "libpcap: " + e.getMessage());
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            throw new CaptureException(name, -1, Libpcap.MISSING);
        }
    }

    private static boolean startsWithPcapngMagic(Path p) {
        try (var in = Files.newInputStream(p)) {
            byte[] b = in.readNBytes(4);
            return b.length == 4 && Bytes.i32be(b, 0) == PcapngReader.SHB;
        } catch (IOException e) {
            return false;
        }
    }

    /** libpcap reads pcapng in file order too, so both readers reorder it the same way. */
    @Override
    public boolean interleavesInterfaces() {
        return pcapng;
    }

    @Override
    public void onProblem(java.util.function.Consumer<CaptureException> sink) {
        this.problems = sink;
    }

    @Override
    public Frame next() throws CaptureException {
        byte[] raw;
        while (true) {
            try {
                raw = handle.getNextRawPacketEx();
                break;
            } catch (IllegalArgumentException e) {
                // pcap4j turns libpcap's header into a java.sql.Timestamp, which refuses a fraction of a second of a
                // second or more (a corrupt microseconds field): libpcap has consumed the record, pcap4j lost it.
                stats.skippedRecords++;
                problems.accept(new CaptureException(capture.name(), -1, "frame " + (stats.frames + stats.skippedRecords)
                        + ": its timestamp's fraction is a second or more (corrupt), which pcap4j cannot represent ("
                        + e.getMessage() + "); skipped (libpcap gives no byte offset; the built-in reader reads it)"));
            } catch (EOFException e) {
                return null;
            } catch (PcapNativeException e) {
                stats.skippedRecords++;
                throw new CaptureException(capture.name(), -1, "libpcap: " + e.getMessage()
                        + " (after frame " + stats.frames + "; libpcap gives no byte offset)");
            } catch (TimeoutException | NotOpenException e) {
                throw new CaptureException(capture.name(), -1, "libpcap: " + e);
            }
        }
        stats.frames++;
        Timestamp ts = handle.getTimestamp();
        frame.nanos = Math.floorDiv(ts.getTime(), 1000L) * 1_000_000_000L + ts.getNanos();
        frame.data = raw;
        frame.offset = 0;
        frame.capLen = raw.length;
        Integer orig = handle.getOriginalLength();
        frame.origLen = orig == null ? raw.length : orig;
        frame.number = stats.frames;
        frame.fileOffset = -1;
        return frame;
    }

    @Override
    public ReadStats stats() {
        return stats;
    }

    @Override
    public void close() throws IOException {
        handle.close();
    }
}
