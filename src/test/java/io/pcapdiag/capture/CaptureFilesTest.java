package io.pcapdiag.capture;

import static io.pcapdiag.capture.CaptureTesting.assertFrames;
import static io.pcapdiag.capture.CaptureTesting.assertOneLine;
import static io.pcapdiag.capture.CaptureTesting.packets;
import static io.pcapdiag.capture.CaptureTesting.read;
import static io.pcapdiag.capture.CaptureTesting.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.CaptureTesting.Packet;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.PcapngWriter;
import io.pcapdiag.testing.ReadAll;
import io.pcapdiag.testing.TrickleChannel;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** Isolated: a test here holds the read budget that every open capture of the JVM shares to what it gives back. */
@Isolated
class CaptureFilesTest {
    @TempDir
    Path dir;

    private static byte[] gzip(byte[] b) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(out)) {
            z.write(b);
        }
        return out.toByteArray();
    }

    private static byte[] pcap(List<Packet> packets) {
        PcapWriter w = PcapWriter.nano(ByteOrder.LITTLE_ENDIAN);
        for (Packet p : packets) {
            w.packet(p.nanos(), p.bytes());
        }
        return w.toByteArray();
    }

    private static byte[] pcapng(List<Packet> packets) {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_ETHERNET, 0, PcapngWriter.tsresol(9));
        for (Packet p : packets) {
            w.epb(0, p.nanos(), p.bytes());
        }
        return w.toByteArray();
    }

    @Test
    void emptyFile() throws Exception {
        Path p = write(dir, "empty.pcap", new byte[0]);
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 0);
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
    }

    @Test
    void directoryIsRefusedByName() throws Exception {
        Path d = Files.createDirectory(dir.resolve("captures.d"));
        CaptureException e = assertThrows(CaptureException.class, () -> CaptureTesting.open(d));
        // Opening has no byte offset: the line names the file and says why (CaptureException#offset: -1).
        assertEquals(-1, e.offset());
        assertEquals(d.toString(), e.capture());
        assertEquals(d + ": is a directory, not a capture file", e.oneLine());
    }

    @Test
    void missingFile() {
        Path p = dir.resolve("nope.pcap");
        CaptureException e = assertThrows(CaptureException.class, () -> CaptureTesting.open(p));
        assertEquals(-1, e.offset());
        assertEquals(p + ": no such file", e.oneLine());
    }

    @Test
    void wrongMagic() throws Exception {
        Path p = write(dir, "notes.txt", "hello, this is not a capture\n".getBytes(StandardCharsets.US_ASCII));
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 0);
        assertTrue(e.getMessage().contains("0x68656c6c"), e.getMessage()); // "hell"
    }

    @Test
    void fewerBytesThanAMagic() throws Exception {
        Path p = write(dir, "three.pcap", new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2});
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 0);
    }

    @Test
    void gzippedPcapAndPcapngReadLikeThePlainFiles() throws Exception {
        List<Packet> packets = packets();
        ReadAll pcap = read(write(dir, "a.pcap.gz", gzip(pcap(packets))));
        ReadAll ng = read(write(dir, "a.pcapng.gz", gzip(pcapng(packets))));
        assertNull(pcap.failure);
        assertNull(ng.failure);
        assertFrames(packets, pcap, 1);
        assertFrames(packets, ng, 1);
        // Offsets count decompressed bytes: the frames point at the same records as in the plain file.
        ReadAll plain = read(write(dir, "a.pcap", pcap(packets)));
        assertEquals(plain.frames.stream().map(ReadAll.Copy::fileOffset).toList(),
                pcap.frames.stream().map(ReadAll.Copy::fileOffset).toList());
    }

    @Test
    void sizeHintIsInTheUnitsOfTheBytesRead() throws Exception {
        // Progress is bytes read over the size hint: both must count the same bytes.
        byte[] plain = pcap(packets());
        ReadAll p = read(write(dir, "b.pcap", plain));
        assertEquals(plain.length, p.stats.sizeHint);
        assertEquals(plain.length, p.stats.bytes);
        ReadAll z = read(write(dir, "b.pcap.gz", gzip(plain)));
        assertEquals(plain.length, z.stats.bytes, "the reader counts decompressed bytes");
        assertTrue(z.stats.sizeHint < 0 || z.stats.sizeHint == z.stats.bytes,
                "the compressed file size is no hint for decompressed bytes: " + z.stats.sizeHint);
    }

    @Test
    void gzipCutShortFailsWithOneLineNotACrash() throws Exception {
        byte[] z = gzip(pcap(packets()));
        Path p = write(dir, "cut.pcap.gz", Arrays.copyOf(z, z.length - 40));
        ReadAll r;
        try {
            r = read(p);
        } catch (CaptureException e) {
            assertOneLine(e.oneLine(), p.toString(), e.offset());
            return;
        }
        assertNotNull(r.failure, "a cut gzip stream must not read as complete");
        assertFalse(r.failure.oneLine().contains("\n"));
        assertTrue(r.failure.oneLine().startsWith(p + ": offset "), r.failure.oneLine());
    }

    @Test
    void gzipWithABrokenHeader() throws Exception {
        byte[] z = gzip(pcap(packets()));
        z[2] = 7; // compression method: only 8 (deflate) exists
        Path p = write(dir, "bad.pcap.gz", z);
        CaptureException e = assertThrows(CaptureException.class, () -> read(p));
        assertOneLine(e.oneLine(), p.toString(), 0);
    }

    /**
     * A gzip file cut inside its header said "gzip header unreadable: null"; deflate data corrupt from its first block
     * said "read failed: invalid distance too far back", as if the disk had failed.
     */
    @Test
    void gzipCutInItsHeaderOrCorruptFromTheStartSaysSo() throws Exception {
        byte[] z = gzip(pcap(packets()));
        for (int cut : new int[] {4, 9}) {
            Path p = write(dir, "head" + cut + ".pcap.gz", Arrays.copyOf(z, cut));
            CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
            assertEquals(p + ": offset 0: gzip header cut off: the file ends inside it", e.oneLine());
        }
        byte[] bad = z.clone();
        bad[10] = (byte) 0xff; // the first deflate block's header: a reserved block type
        Path p = write(dir, "block.pcap.gz", bad);
        CaptureException e = assertThrows(CaptureException.class, () -> CaptureTesting.open(p));
        assertEquals(p + ": offset 0: the gzip data is cut or corrupt here (invalid block type; offset in the "
                + "decompressed capture)", e.oneLine());
    }

    @Test
    void gzipOfSomethingElse() throws Exception {
        Path p = write(dir, "text.gz", gzip("plain text".getBytes(StandardCharsets.US_ASCII)));
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 0);
        Path q = write(dir, "twice.gz", gzip(gzip(pcap(packets()))));
        CaptureException e2 = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(q));
        assertOneLine(e2.oneLine(), q.toString(), 0);
        Path r = write(dir, "nothing.gz", gzip(new byte[0]));
        CaptureException e3 = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(r));
        assertOneLine(e3.oneLine(), r.toString(), 0);
    }

    @Test
    void stdinReadsPcapPcapngAndGzip() throws Exception {
        List<Packet> packets = packets();
        for (byte[] input : List.of(pcap(packets), pcapng(packets), gzip(pcap(packets)))) {
            InputStream saved = System.in;
            try {
                System.setIn(new ByteArrayInputStream(input));
                FrameSource s = CaptureFiles.open(new Capture(0, "-"));
                assertEquals(-1, s.stats().sizeHint, "stdin has no size");
                ReadAll r = ReadAll.of(s);
                assertNull(r.failure);
                assertFrames(packets, r, 1);
            } finally {
                System.setIn(saved);
            }
        }
    }

    @Test
    void stdinEmptyNamesTheDash() {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(new byte[0]));
            CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureFiles.open(new Capture(0, "-")));
            assertOneLine(e.oneLine(), "-", 0);
        } finally {
            System.setIn(saved);
        }
    }

    /** A pipe that delivers a few bytes per read into a tiny window: records straddle every refill. */
    @Test
    void tricklingChannelWithATinyWindowGivesTheSameFrames() throws Exception {
        List<Packet> packets = packets();
        Capture c = new Capture(0, "pipe");
        for (int chunk : new int[] {1, 3, 7, 64, 1 << 20}) {
            for (int window : new int[] {1, 5, 16, 100}) {
                ReadAll r = ReadAll.of(new PcapReader(c, new ByteInput(new TrickleChannel(pcap(packets), chunk), window)));
                assertNull(r.failure, () -> "pcap chunk " + chunk + " window " + window + ": " + r.failure.oneLine());
                assertFrames(packets, r, 1);
                ReadAll ng = ReadAll.of(new PcapngReader(c, new ByteInput(new TrickleChannel(pcapng(packets), chunk), window)));
                assertNull(ng.failure);
                assertFrames(packets, ng, 1);
            }
        }
    }

    @Test
    void tricklingChannelResynchronisesToo() throws Exception {
        List<Packet> packets = packets();
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        w.packet(packets.get(0).nanos(), packets.get(0).bytes());
        int bad = w.offset();
        w.record(1_700_000_000L, 0, 1L << 30, 30, new byte[30]);
        int resumed = w.offset();
        for (Packet p : packets.subList(1, packets.size())) {
            w.packet(p.nanos(), p.bytes());
        }
        ReadAll r = ReadAll.of(new PcapReader(new Capture(0, "pipe"),
                new ByteInput(new TrickleChannel(w.toByteArray(), 2), 8)));
        assertNull(r.failure);
        assertFrames(packets, r, 1);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(resumed - bad, r.stats.skippedBytes);
        assertOneLine(r.problems.get(0).oneLine(), "pipe", bad);
    }

    @Test
    void closingTheSourceClosesTheChannel() throws Exception {
        TrickleChannel ch = new TrickleChannel(pcap(packets()), 100);
        FrameSource s = new PcapReader(new Capture(0, "pipe"), new ByteInput(ch, 64));
        assertNotNull(s.next());
        s.close();
        assertFalse(ch.isOpen());
    }

    @Test
    void readFailureIsACaptureExceptionWithTheOffset() throws Exception {
        byte[] file = pcap(packets());
        int failAt = PcapWriter.FILE_HEADER + 16 + packets().get(0).bytes().length + 10;
        // A channel that fails part-way (after the first record), as a disk or a pipe can.
        java.nio.channels.ReadableByteChannel failing = new java.nio.channels.ReadableByteChannel() {
            int given;

            @Override
            public int read(java.nio.ByteBuffer dst) throws IOException {
                if (given >= failAt) {
                    throw new IOException("Input/output error");
                }
                int n = Math.min(dst.remaining(), failAt - given);
                dst.put(file, given, n);
                given += n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
        ReadAll r = ReadAll.of(new PcapReader(new Capture(0, "disk.pcap"), new ByteInput(failing, 32)));
        assertEquals(1, r.frames.size());
        assertInstanceOf(CaptureException.class, r.failure);
        assertTrue(r.failure.oneLine().startsWith("disk.pcap: offset "), r.failure.oneLine());
        assertTrue(r.failure.oneLine().contains("Input/output error"), r.failure.oneLine());
    }

    /**
     * A gzip stream cut in the middle: every record inside the bytes that still decompress is read (the
     * oracle is the JDK's own GZIPInputStream, byte by byte), and the failure names the decompressed offset.
     */
    @Test
    void gzipCutInTheMiddleKeepsEveryPacketBeforeTheCut() throws Exception {
        java.util.Random random = new java.util.Random(12);
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        int records = 3000;
        int size = 200;
        for (int i = 0; i < records; i++) {
            byte[] b = new byte[size];
            random.nextBytes(b);
            w.packet(1_700_000_000_000_000_000L + i * 1000L, b);
        }
        byte[] z = gzip(w.toByteArray());
        byte[] cut = Arrays.copyOf(z, z.length / 2);
        long good = 0;
        try (InputStream in = new java.util.zip.GZIPInputStream(new ByteArrayInputStream(cut))) {
            while (in.read() >= 0) {
                good++;
            }
        } catch (IOException expected) {
            // where the JDK stops decompressing
        }
        long whole = (good - PcapWriter.FILE_HEADER) / (16 + size);
        assertTrue(whole > records / 4 && whole < records, "the cut leaves part of the capture: " + whole);

        Path p = write(dir, "half.pcap.gz", cut);
        ReadAll r = read(p);
        assertEquals(whole, r.frames.size(), "every packet decompressed before the cut is read");
        assertNotNull(r.failure);
        assertTrue(r.failure.getMessage().contains("gzip"), r.failure.oneLine());
        assertOneLine(r.failure.oneLine(), p.toString(), PcapWriter.FILE_HEADER + whole * (16 + size));
    }

    /** A named pipe has no size: it is streamed as tcpdump -r reads it, never taken for an empty file. */
    @Test
    void namedPipeIsStreamed() throws Exception {
        Path fifo = dir.resolve("capture.fifo");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
        assertEquals(0, mk.waitFor());
        byte[] content = pcap(packets());
        Thread writer = new Thread(() -> {
            try {
                Files.write(fifo, content);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        ReadAll r = read(fifo);
        writer.join(10_000);
        assertNull(r.failure);
        assertFrames(packets(), r, 1);
        assertEquals(-1, r.stats.sizeHint, "a pipe has no size");
    }

    /** Past the read budget, each further capture costs a small window; closing gives every byte back. */
    @Test
    void readWindowsComeFromOneBudgetAndGoBackOnClose() throws Exception {
        Path p = write(dir, "b.pcap", pcap(packets()));
        Path q = write(dir, "b.pcapng", pcapng(packets()));
        long before = ReadBudget.left();
        List<FrameSource> open = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            open.add(new TimeOrderedSource(CaptureTesting.open(i % 2 == 0 ? p : q)));
        }
        long taken = before - ReadBudget.left();
        // 200 captures at 4 MiB and 32 MiB each would be 3.6 GiB: only the budget and small windows are taken.
        assertTrue(taken <= before + 200L * (ReadBudget.SMALL + TimeOrderedSource.SMALL_WINDOW_BYTES),
                "taken " + taken + " of " + before);
        for (FrameSource s : open) {
            assertNull(ReadAll.of(s).failure);
            s.close();
        }
        assertEquals(before, ReadBudget.left(), "every window is given back");
    }
}
