package io.pcapdiag.capture;

import static io.pcapdiag.capture.CaptureTesting.assertFrames;
import static io.pcapdiag.capture.CaptureTesting.assertOneLine;
import static io.pcapdiag.capture.CaptureTesting.packets;
import static io.pcapdiag.capture.CaptureTesting.read;
import static io.pcapdiag.capture.CaptureTesting.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.CaptureTesting.Packet;
import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.ReadAll;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PcapReaderTest {
    @TempDir
    Path dir;

    static Stream<Arguments> formats() {
        return Stream.of(
                Arguments.of("us-le", PcapWriter.MAGIC_US, ByteOrder.LITTLE_ENDIAN),
                Arguments.of("us-be", PcapWriter.MAGIC_US, ByteOrder.BIG_ENDIAN),
                Arguments.of("ns-le", PcapWriter.MAGIC_NS, ByteOrder.LITTLE_ENDIAN),
                Arguments.of("ns-be", PcapWriter.MAGIC_NS, ByteOrder.BIG_ENDIAN),
                Arguments.of("kuznetzov-le", PcapWriter.MAGIC_KUZNETZOV, ByteOrder.LITTLE_ENDIAN),
                Arguments.of("kuznetzov-be", PcapWriter.MAGIC_KUZNETZOV, ByteOrder.BIG_ENDIAN));
    }

    private static PcapWriter writer(int magic, ByteOrder order, List<Packet> packets) {
        PcapWriter w = PcapWriter.of(magic, order);
        for (Packet p : packets) {
            w.packet(p.nanos(), p.bytes());
        }
        return w;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void everyFormatGivesTheSameFramesAndTimes(String name, int magic, ByteOrder order) throws Exception {
        List<Packet> packets = packets();
        PcapWriter w = writer(magic, order, packets);
        byte[] file = w.toByteArray();
        ReadAll r = read(write(dir, name + ".pcap", file));

        assertNull(r.failure);
        assertEquals(List.of(), r.problems);
        assertFrames(packets, r, LinkBuilder.LINKTYPE_ETHERNET);
        assertEquals(packets.size(), r.stats.frames);
        assertEquals(0, r.stats.skippedRecords);
        assertEquals(0, r.stats.skippedBytes);
        assertEquals(file.length, r.stats.bytes);
        assertEquals(file.length, r.stats.sizeHint);
        // Each frame points at its record header.
        long offset = PcapWriter.FILE_HEADER;
        for (int i = 0; i < packets.size(); i++) {
            assertEquals(offset, r.frames.get(i).fileOffset());
            offset += w.recordHeaderLength() + packets.get(i).bytes().length;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void nanosecondFilesKeepEveryNanosecond(String name, int magic, ByteOrder order) throws Exception {
        long t = 1_700_000_000_123_456_789L;
        byte[] file = PcapWriter.of(magic, order).packet(t, new byte[] {1, 2, 3}).packet(t + 1, new byte[] {4}).toByteArray();
        ReadAll r = read(write(dir, name + ".pcap", file));
        long expected = magic == PcapWriter.MAGIC_NS ? t : t - 789; // microsecond files hold 123456 us
        assertEquals(List.of(expected, magic == PcapWriter.MAGIC_NS ? t + 1 : t - 789), r.times());
    }

    @Test
    void linkTypeIsTheFieldsLow16BitsAndFcsBitsAreIgnored() throws Exception {
        // 0x14000000: FCS length present (bit 26), FCS length 1 (bits 28-31 = 1) on LINKTYPE_LINUX_SLL2.
        byte[] file = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).linkType(0x1400_0000 | 276)
                .packet(0, new byte[20]).toByteArray();
        ReadAll r = read(write(dir, "fcs.pcap", file));
        assertEquals(276, r.frames.get(0).linkType());
    }

    @Test
    void emptyCaptureAfterTheHeaderHasNoFrames() throws Exception {
        byte[] file = PcapWriter.nano(ByteOrder.BIG_ENDIAN).toByteArray();
        ReadAll r = read(write(dir, "header-only.pcap", file));
        assertNull(r.failure);
        assertEquals(0, r.frames.size());
        assertEquals(24, r.stats.bytes);
    }

    @Test
    void recordLongerThanTheSnaplenIsCutToTheSnaplenLikeLibpcap() throws Exception {
        byte[] big = new byte[100];
        new Random(1).nextBytes(big);
        byte[] after = {9, 8, 7};
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).snaplen(64);
        w.packet(1_000_000L, big, 1500);
        int second = w.offset();
        w.packet(2_000_000L, after);
        String name = dir.resolve("snap.pcap").toString();
        ReadAll r = read(write(dir, "snap.pcap", w.toByteArray()));

        assertNull(r.failure);
        assertEquals(2, r.frames.size());
        assertArrayEquals(Arrays.copyOf(big, 64), r.frames.get(0).bytes(), "first snaplen bytes only");
        assertEquals(1500, r.frames.get(0).origLen());
        // The whole record was consumed: the next one is intact.
        assertArrayEquals(after, r.frames.get(1).bytes());
        assertEquals(second, r.frames.get(1).fileOffset());
        assertEquals(1, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), name, 24);
        assertEquals(2, r.stats.frames);
        assertEquals(0, r.stats.skippedRecords);
    }

    @Test
    void absurdRecordLengthResynchronisesAtTheNextRecord() throws Exception {
        List<Packet> packets = packets();
        PcapWriter w = PcapWriter.micro(ByteOrder.BIG_ENDIAN);
        w.packet(packets.get(0).nanos(), packets.get(0).bytes());
        int bad = w.offset();
        // A record whose length field was overwritten; its 80 data bytes are still there.
        byte[] junk = new byte[80];
        new Random(3).nextBytes(junk);
        w.record(1_700_000_000L, 5, 0x7fff_fff0L, 80, junk);
        int resumed = w.offset();
        for (Packet p : packets.subList(1, 4)) {
            w.packet(p.nanos(), p.bytes());
        }
        String name = dir.resolve("resync.pcap").toString();
        ReadAll r = read(write(dir, "resync.pcap", w.toByteArray()));

        assertNull(r.failure, () -> r.failure.oneLine());
        assertFrames(packets.subList(0, 4), r, LinkBuilder.LINKTYPE_ETHERNET);
        assertEquals(resumed, r.frames.get(1).fileOffset());
        assertEquals(1, r.problems.size());
        String line = r.problems.get(0).oneLine();
        assertOneLine(line, name, bad);
        assertTrue(line.contains("resynchronised at offset " + resumed), line);
        assertEquals(4, r.stats.frames);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(resumed - bad, r.stats.skippedBytes);
    }

    /**
     * A corrupt length between the snaplen and the 262144 maximum used to be taken as a record: it swallowed the
     * records after it. Longer than the snaplen, with no record header after it, it is corrupt: resynchronised.
     */
    @Test
    void lengthBeyondTheSnaplenWithNoRecordAfterItResynchronises() throws Exception {
        List<Packet> packets = packets();
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).snaplen(2048);
        w.packet(packets.get(0).nanos(), packets.get(0).bytes());
        int bad = w.offset();
        byte[] junk = new byte[60];
        new Random(5).nextBytes(junk);
        w.record(1_700_000_000L, 5, 100_000, 100_000, junk); // the length is corrupt: 60 bytes follow, not 100,000
        int resumed = w.offset();
        for (Packet p : packets.subList(1, 4)) {
            w.packet(p.nanos(), p.bytes());
        }
        String name = dir.resolve("between.pcap").toString();
        ReadAll r = read(write(dir, "between.pcap", w.toByteArray()));

        assertNull(r.failure, () -> r.failure.oneLine());
        assertFrames(packets.subList(0, 4), r, LinkBuilder.LINKTYPE_ETHERNET);
        assertEquals(1, r.problems.size());
        String line = r.problems.get(0).oneLine();
        assertOneLine(line, name, bad);
        assertTrue(line.contains("exceeds the file's snaplen 2048") && line.contains("resynchronised at offset " + resumed),
                line);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(resumed - bad, r.stats.skippedBytes);
    }

    @Test
    void absurdRecordLengthAsTheLastRecordEndsReadingWithTheOffset() throws Exception {
        List<Packet> packets = packets();
        PcapWriter w = PcapWriter.nano(ByteOrder.LITTLE_ENDIAN);
        w.packet(packets.get(0).nanos(), packets.get(0).bytes());
        int bad = w.offset();
        w.record(1_700_000_000L, 5, 0xffff_ffffL, 40, new byte[40]);
        byte[] file = w.toByteArray();
        String name = dir.resolve("tail.pcap").toString();
        ReadAll r = read(write(dir, "tail.pcap", file));

        assertEquals(1, r.frames.size());
        assertNotNull(r.failure);
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        assertOneLine(r.failure.oneLine(), name, bad);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(file.length - bad, r.stats.skippedBytes);
        assertEquals(file.length, r.stats.bytes);
    }

    @Test
    void hugeSnaplenInTheHeaderDoesNotMakeAHugeRecordAcceptable() throws Exception {
        // A corrupt header snaplen must not let a corrupt record length through: libpcap clamps the
        // snaplen to the link type's maximum (262144) and rejects longer records.
        List<Packet> packets = packets();
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).snaplen(0x7fff_ffff);
        w.packet(packets.get(0).nanos(), packets.get(0).bytes());
        int bad = w.offset();
        w.record(1_700_000_000L, 0, 0x7fff_fff0L, 0x7fff_fff0L, new byte[64]);
        int resumed = w.offset();
        w.packet(packets.get(1).nanos(), packets.get(1).bytes());
        w.packet(packets.get(2).nanos(), packets.get(2).bytes());
        ReadAll r = read(write(dir, "hugesnap.pcap", w.toByteArray()));

        assertNull(r.failure, () -> r.failure.oneLine());
        assertFrames(packets.subList(0, 3), r, LinkBuilder.LINKTYPE_ETHERNET);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(resumed - bad, r.stats.skippedBytes);
    }

    @Test
    void truncatedFileHeader() throws Exception {
        byte[] file = Arrays.copyOf(PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).toByteArray(), 15);
        Path p = write(dir, "short-header.pcap", file);
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 0);
        assertTrue(e.getMessage().contains("15"), e.getMessage());
    }

    @Test
    void truncatedRecordHeader() throws Exception {
        List<Packet> packets = packets();
        PcapWriter w = PcapWriter.micro(ByteOrder.BIG_ENDIAN);
        w.packet(packets.get(0).nanos(), packets.get(0).bytes());
        int cut = w.offset();
        w.raw(new byte[] {0x65, 0x53, (byte) 0xf1, 0, 0, 0, 1});
        Path p = write(dir, "cut-header.pcap", w.toByteArray());
        ReadAll r = read(p);

        assertEquals(1, r.frames.size());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        assertOneLine(r.failure.oneLine(), p.toString(), cut);
        assertTrue(r.failure.getMessage().contains("record header"), r.failure.getMessage());
        assertEquals(1, r.stats.frames);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(cut + 7, r.stats.bytes);
    }

    @Test
    void truncatedRecordData() throws Exception {
        List<Packet> packets = packets();
        PcapWriter w = PcapWriter.kuznetzov(ByteOrder.LITTLE_ENDIAN);
        w.packet(packets.get(0).nanos(), packets.get(0).bytes());
        int cut = w.offset();
        w.packet(packets.get(1).nanos(), packets.get(1).bytes());
        byte[] file = Arrays.copyOf(w.toByteArray(), cut + 24 + 100);
        Path p = write(dir, "cut-data.pcap", file);
        ReadAll r = read(p);

        assertEquals(1, r.frames.size());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        assertOneLine(r.failure.oneLine(), p.toString(), cut);
        assertTrue(r.failure.getMessage().contains(Integer.toString(24 + 1514)), r.failure.getMessage());
        assertEquals(1, r.stats.frames);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(file.length, r.stats.bytes);
    }

    @Test
    void zeroLengthRecordIsAFrameWithNoBytes() throws Exception {
        byte[] file = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).packet(5_000L, new byte[0], 60).packet(6_000L, new byte[] {1})
                .toByteArray();
        ReadAll r = read(write(dir, "zero.pcap", file));
        assertNull(r.failure);
        assertEquals(2, r.frames.size());
        assertEquals(0, r.frames.get(0).bytes().length);
        assertEquals(60, r.frames.get(0).origLen());
    }

    @Test
    void manyRecordsAcrossTheReadWindowStayIntact() throws Exception {
        // Forty times the 128 KiB read window, so records straddle refills.
        Random rnd = new Random(11);
        PcapWriter w = PcapWriter.nano(ByteOrder.LITTLE_ENDIAN);
        long t = 1_600_000_000_000_000_000L;
        int n = 0;
        long[] sums = new long[4000];
        while (w.offset() < (5 << 20)) {
            byte[] b = new byte[1 + rnd.nextInt(3000)];
            rnd.nextBytes(b);
            sums[n++] = Arrays.hashCode(b);
            w.packet(t + n, b);
        }
        ReadAll r = read(write(dir, "big.pcap", w.toByteArray()));
        assertNull(r.failure);
        assertEquals(n, r.frames.size());
        for (int i = 0; i < n; i++) {
            assertEquals(sums[i], Arrays.hashCode(r.frames.get(i).bytes()), "frame " + (i + 1));
            assertEquals(t + i + 1, r.frames.get(i).nanos());
        }
    }

    @Test
    void versionOtherThanTwoIsRefusedAtItsOffset() throws Exception {
        byte[] file = PcapWriter.micro(ByteOrder.BIG_ENDIAN).packet(0, new byte[4]).toByteArray();
        Buf.put16(file, 4, 1);
        Path p = write(dir, "v1.pcap", file);
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 4);
    }

    /** Zeros after the header (a decompression bomb, a zeroed block) are said at their offset, not read to the end. */
    @Test
    void aRunOfEmptyRecordsIsNotACapture() throws Exception {
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        w.packet(1_000_000L, new byte[] {1});
        int zeros = w.offset();
        w.raw(new byte[16 * 5000]);
        w.packet(2_000_000L, new byte[] {2});
        Path p = write(dir, "zeros.pcap", w.toByteArray());
        ReadAll r = read(p);
        assertEquals(1 + PcapReader.MAX_EMPTY_RUN - 1, r.frames.size());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        assertOneLine(r.failure.oneLine(), p.toString(), zeros);
        assertTrue(r.failure.getMessage().contains("decompression bomb"), r.failure.getMessage());
        assertEquals(1, r.stats.skippedRecords);

        // A few empty records are frames like any other (libpcap hands them out too).
        PcapWriter few = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        few.raw(new byte[16 * 3]);
        few.packet(2_000_000L, new byte[] {2});
        ReadAll f = read(write(dir, "few.pcap", few.toByteArray()));
        assertNull(f.failure);
        assertEquals(4, f.frames.size());
    }
}
