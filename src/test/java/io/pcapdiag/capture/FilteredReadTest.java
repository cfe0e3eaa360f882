package io.pcapdiag.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.TrickleChannel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A source read with a {@link FrameFilter} ({@link FrameSource#next(FrameFilter)}; the pcap reader tests records in
 * its own loop) gives exactly what reading every frame and asking the same filter of each gives: the same frames taken
 * and handed out, in the same order, with the same times, bytes, numbers and offsets, the same problems, the same
 * failure and the same statistics. Over every capture on disk and 400 generated pcap files with every kind of bad
 * record the reader handles, read whole or a few bytes at a time.
 */
class FilteredReadTest {
    /** Takes about three frames in four, by their bytes and time, as the prefilter takes most of a busy node's. */
    private static boolean takes(long nanos, byte[] data, int offset, int capLen) {
        int h = (int) (nanos ^ nanos >>> 29);
        for (int i = offset; i < offset + capLen; i++) {
            h = h * 31 + data[i];
        }
        return (h & 3) != 0;
    }

    private static String frame(String how, long nanos, int linkType, byte[] data, int offset, int capLen) {
        return how + " t=" + nanos + " lt=" + linkType + " " + Arrays.hashCode(Arrays.copyOfRange(data, offset, offset + capLen))
                + "/" + capLen;
    }

    /** Every event of one read: frames taken, frames handed out (with number, length and offset), problems, the end. */
    private static List<String> read(Supplier<FrameSource> open, boolean filtered) throws IOException {
        List<String> events = new ArrayList<>();
        FrameSource s = open.get();
        if (s == null) {
            return List.of("did not open");
        }
        s.onProblem(e -> events.add("problem " + e.oneLine()));
        FrameFilter filter = (capture, nanos, linkType, data, offset, capLen) -> {
            if (!takes(nanos, data, offset, capLen)) {
                return false;
            }
            events.add(frame("taken", nanos, linkType, data, offset, capLen));
            return true;
        };
        try (s) {
            while (true) {
                Frame f = filtered ? s.next(filter) : s.next();
                if (f == null) {
                    break;
                }
                if (!filtered && filter.take(f.capture, f.nanos, f.linkType, f.data, f.offset, f.capLen)) {
                    continue;
                }
                events.add(frame("frame #" + f.number + " @" + f.fileOffset + " orig=" + f.origLen, f.nanos, f.linkType,
                        f.data, f.offset, f.capLen));
            }
        } catch (CaptureException e) {
            events.add("failure " + e.oneLine());
        }
        ReadStats st = s.stats();
        events.add("stats frames=" + st.frames + " bytes=" + st.bytes + " skipped=" + st.skippedRecords + "/" + st.skippedBytes);
        return events;
    }

    static void assertSame(String name, Supplier<FrameSource> open) throws IOException {
        List<String> all = read(open, false);
        List<String> filtered = read(open, true);
        assertEquals(all.size(), filtered.size(), name + ": events");
        for (int i = 0; i < all.size(); i++) {
            assertEquals(all.get(i), filtered.get(i), name + ": event " + i);
        }
    }

    static Supplier<FrameSource> opener(String name, byte[] file, int chunk) {
        return () -> {
            ReadableByteChannel ch = chunk > 0 ? new TrickleChannel(file, chunk)
                    : Channels.newChannel(new ByteArrayInputStream(file));
            try {
                return CaptureFiles.open(new Capture(0, name), ch, file.length);
            } catch (CaptureException e) {
                return null;
            }
        };
    }

    @Test
    void everyCaptureOnDiskReadsTheSameWithTheFilter() throws IOException {
        List<Path> files = new ArrayList<>(CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir().resolve("captures")));
        assertFalse(files.isEmpty(), "no regression captures");
        files.addAll(CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir()
                .resolve("src/test/resources/io/pcapdiag/capture/ReaderFuzzTestInputs")));
        files.addAll(CaptureFilesOnDisk.under(CaptureFilesOnDisk.corpusDir()));
        for (Path p : files) {
            assertSame(p.toString(), opener(p.toString(), Files.readAllBytes(p), 0));
        }
    }

    @Test
    void generatedCapturesWithBadRecordsReadTheSameWithTheFilter() throws IOException {
        Random r = new Random(20261125);
        int[] magics = {PcapWriter.MAGIC_US, PcapWriter.MAGIC_NS, PcapWriter.MAGIC_KUZNETZOV};
        int taken = 0;
        for (int n = 0; n < 400; n++) {
            PcapWriter w = PcapWriter.of(magics[r.nextInt(3)], r.nextBoolean() ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            boolean smallSnaplen = r.nextInt(4) == 0;
            if (smallSnaplen) {
                w.snaplen(200);
            }
            boolean ns = w.header()[0] == 0x4d || w.header()[3] == 0x4d;
            int records = n % 20 == 0 ? 3000 : 1 + r.nextInt(200); // some larger than a read window
            long sec = 1_700_000_000L;
            for (int i = 0; i < records; i++) {
                sec += r.nextInt(10) == 0 ? -1 : r.nextInt(2);
                long frac = r.nextInt(ns ? 1_000_000_000 : 1_000_000);
                byte[] data = new byte[1 + r.nextInt(r.nextInt(8) == 0 ? 1600 : 120)];
                r.nextBytes(data);
                switch (r.nextInt(60)) {
                    case 0 -> w.record(sec, frac, 0, r.nextBoolean() ? 0 : 60, new byte[0]); // empty record
                    case 1 -> w.record(sec, ns ? 1_000_000_000L + frac : 1_000_000L + frac, data.length, data.length, data);
                    case 2 -> w.record(sec, frac, 300_000, 300_000, data); // absurd length: resynchronised
                    case 3 -> w.record(sec, frac, data.length + 300, data.length + 300, data); // longer than its bytes
                    case 4 -> {
                        if (r.nextInt(10) == 0) {
                            for (int k = 0; k < PcapReader.MAX_EMPTY_RUN + 1; k++) {
                                w.record(sec, frac, 0, 0, new byte[0]); // zeros: the rest is not read
                            }
                        }
                    }
                    case 5 -> w.raw(Arrays.copyOf(data, Math.min(data.length, 7))); // garbage between records
                    default -> w.record(sec, frac, data.length, data.length + r.nextInt(3), data);
                }
            }
            byte[] file = w.toByteArray();
            if (r.nextInt(5) == 0) {
                file = Arrays.copyOf(file, Math.max(PcapWriter.FILE_HEADER, file.length - 1 - r.nextInt(40))); // cut off
            }
            String name = "gen-" + n + ".pcap";
            assertSame(name, opener(name, file, 0));
            if (n % 4 == 0) {
                assertSame(name + " in chunks", opener(name, file, 1 + r.nextInt(5000)));
            }
            for (String e : read(opener(name, file, 0), true)) {
                taken += e.startsWith("taken") ? 1 : 0;
            }
        }
        assertTrue(taken > 10_000, "the filter took frames: " + taken);
    }
}
