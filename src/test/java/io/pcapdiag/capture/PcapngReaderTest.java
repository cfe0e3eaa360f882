package io.pcapdiag.capture;

import static io.pcapdiag.capture.CaptureTesting.assertOneLine;
import static io.pcapdiag.capture.CaptureTesting.packets;
import static io.pcapdiag.capture.CaptureTesting.read;
import static io.pcapdiag.capture.CaptureTesting.write;
import static io.pcapdiag.testing.PcapngWriter.ifName;
import static io.pcapdiag.testing.PcapngWriter.tsresol;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.CaptureTesting.Packet;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.PcapngWriter;
import io.pcapdiag.testing.ReadAll;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class PcapngReaderTest {
    @TempDir
    Path dir;

    enum Order {
        LITTLE(ByteOrder.LITTLE_ENDIAN), BIG(ByteOrder.BIG_ENDIAN);

        final ByteOrder order;

        Order(ByteOrder order) {
            this.order = order;
        }
    }

    /** Nanoseconds of {@code ticks} at {@code unitsPerSecond}, floored, computed exactly. */
    private static long nanos(long ticks, BigInteger unitsPerSecond, long offsetSeconds) {
        BigInteger t = new BigInteger(Long.toUnsignedString(ticks));
        BigInteger ns = t.multiply(BigInteger.valueOf(1_000_000_000L)).divide(unitsPerSecond);
        return ns.longValueExact() + offsetSeconds * 1_000_000_000L;
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void sameFramesAndTimesAsClassicPcap(Order o) throws Exception {
        List<Packet> packets = packets();
        PcapngWriter w = new PcapngWriter().section(o.order);
        w.idb(LinkBuilder.LINKTYPE_ETHERNET, 262_144, tsresol(9));
        for (Packet p : packets) {
            w.epb(0, p.nanos(), p.bytes());
        }
        PcapWriter classic = PcapWriter.nano(o.order);
        for (Packet p : packets) {
            classic.packet(p.nanos(), p.bytes());
        }
        ReadAll ng = read(write(dir, "a.pcapng", w.toByteArray()));
        ReadAll pcap = read(write(dir, "a.pcap", classic.toByteArray()));

        assertNull(ng.failure);
        CaptureTesting.assertFrames(packets, ng, LinkBuilder.LINKTYPE_ETHERNET);
        assertEquals(pcap.times(), ng.times());
        for (int i = 0; i < packets.size(); i++) {
            assertArrayEquals(pcap.frames.get(i).bytes(), ng.frames.get(i).bytes());
        }
        assertEquals(packets.size(), ng.stats.frames);
        assertEquals(0, ng.stats.skippedRecords);
        assertEquals(w.toByteArray().length, ng.stats.bytes);
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void interfacesKeepTheirOwnLinkTypeNameAndClock(Order o) throws Exception {
        byte[] ip = LinkBuilder.ethernet(new byte[] {0x45, 0});
        PcapngWriter w = new PcapngWriter().section(o.order);
        w.idb(LinkBuilder.LINKTYPE_ETHERNET, 262_144, ifName("eth0"));                    // 0: default 10^-6
        w.idb(LinkBuilder.LINKTYPE_LINUX_SLL2, 262_144, ifName("any"), tsresol(9));       // 1: ns
        w.idb(LinkBuilder.LINKTYPE_LINUX_SLL, 65_535, ifName("veth1234abcd"), tsresol(0x80 | 20), w.tsoffset(100));
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);                                                // 3: no name, us
        w.idb(LinkBuilder.LINKTYPE_NULL, 0, ifName("lo0"), tsresol(3), w.tsoffset(-3600)); // 4: ms, an hour back
        w.idb(LinkBuilder.LINKTYPE_IPV4, 0, ifName("cni0"), tsresol(0x80 | 30));           // 5: 2^-30
        w.idb(LinkBuilder.LINKTYPE_IPV6, 0, ifName("sec"), tsresol(0));                    // 6: whole seconds
        long us = 1_700_000_000_123_456L;
        long ns = 1_700_000_000_123_456_789L;
        long pow20 = (1_700_000_000L << 20) | 12_345;
        long ms = 1_700_000_000_999L;
        long pow30 = (1_700_000_000L << 30) | ((1L << 30) - 1);
        w.epb(0, us, ip);
        w.epb(1, ns, ip);
        w.epb(2, pow20, ip);
        w.epb(3, us + 1, ip);
        w.epb(4, ms, ip);
        w.epb(5, pow30, ip);
        w.epb(6, 1_700_000_000L, ip);
        ReadAll r = read(write(dir, "ifaces.pcapng", w.toByteArray()));

        assertNull(r.failure);
        assertEquals(List.of(), r.problems);
        assertEquals(List.of(1, 276, 113, 101, 0, 228, 229), r.frames.stream().map(ReadAll.Copy::linkType).toList());
        assertEquals(Arrays.asList("eth0", "any", "veth1234abcd", null, "lo0", "cni0", "sec"),
                r.frames.stream().map(ReadAll.Copy::interfaceName).toList());
        assertEquals(List.of(
                us * 1000,
                ns,
                nanos(pow20, BigInteger.ONE.shiftLeft(20), 100),
                (us + 1) * 1000,
                ms * 1_000_000 - 3_600_000_000_000L,
                nanos(pow30, BigInteger.ONE.shiftLeft(30), 0),
                1_700_000_000_000_000_000L), r.times());
        // Spot-check the arithmetic of the 2^-n cases independently: 12345/2^20 s and (2^30-1)/2^30 s.
        assertEquals(1_700_000_100_011_773_109L, r.times().get(2));
        assertEquals(1_700_000_000_999_999_999L, r.times().get(5));
    }

    @Test
    void everyPowerOfTwoAndTenResolutionConvertsExactly() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        long[] expected = new long[2 * 19 + 2 * 63];
        int n = 0;
        long seconds = 1_234_567_890L;
        for (int e = 0; e <= 18; e++) {
            w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(e));
        }
        for (int e = 0; e <= 62; e++) {
            w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(0x80 | e));
        }
        byte[] data = {0x45};
        for (int e = 0; e <= 18; e++) {
            BigInteger units = BigInteger.TEN.pow(e);
            for (long frac : new long[] {0, units.longValueExact() - 1}) {
                // Stay within 64 bits of ticks: at 10^-18 only a few seconds fit.
                long s = e >= 10 ? 3 : seconds;
                long ticks = units.multiply(BigInteger.valueOf(s)).add(BigInteger.valueOf(frac)).longValueExact();
                w.epb(e, ticks, data);
                expected[n++] = nanos(ticks, units, 0);
            }
        }
        for (int e = 0; e <= 62; e++) {
            BigInteger units = BigInteger.ONE.shiftLeft(e);
            for (long frac : new long[] {0, units.longValueExact() - 1}) {
                long s = e >= 31 ? 1 : seconds;
                long ticks = units.multiply(BigInteger.valueOf(s)).add(BigInteger.valueOf(frac)).longValueExact();
                w.epb(19 + e, ticks, data);
                expected[n++] = nanos(ticks, units, 0);
            }
        }
        ReadAll r = read(write(dir, "resolutions.pcapng", w.toByteArray()));
        assertNull(r.failure);
        assertEquals(List.of(), r.problems);
        for (int i = 0; i < n; i++) {
            assertEquals(expected[i], r.times().get(i), "packet " + i);
        }
    }

    @Test
    void outOfRangeResolutionFallsBackToMicrosecondsWithAProblemLine() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        int idbAt = w.offset();
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(19));
        w.epb(0, 1_700_000_000_000_001L, new byte[] {0x45});
        Path p = write(dir, "tsresol.pcapng", w.toByteArray());
        ReadAll r = read(p);
        assertEquals(List.of(1_700_000_000_000_001_000L), r.times());
        assertEquals(1, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), idbAt);
    }

    @Test
    void simpleAndObsoletePacketBlocks() throws Exception {
        byte[] a = {1, 2, 3, 4, 5, 6, 7};
        byte[] b = {9, 9};
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_ETHERNET, 5, ifName("eth0"));
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, ifName("tun0"), tsresol(9));
        // SPB: interface 0, whose snaplen (5) limits what was captured of the 100-byte packet.
        w.spb(Arrays.copyOf(a, 5), 100);
        w.pb(1, 1_700_000_000_123_456_789L, b);
        w.spb(Arrays.copyOf(a, 3), 3);
        ReadAll r = read(write(dir, "spb.pcapng", w.toByteArray()));

        assertNull(r.failure);
        assertEquals(3, r.frames.size());
        ReadAll.Copy spb = r.frames.get(0);
        assertArrayEquals(Arrays.copyOf(a, 5), spb.bytes());
        assertEquals(100, spb.origLen());
        assertEquals("eth0", spb.interfaceName());
        assertEquals(1, spb.linkType());
        ReadAll.Copy pb = r.frames.get(1);
        assertArrayEquals(b, pb.bytes());
        assertEquals("tun0", pb.interfaceName());
        assertEquals(101, pb.linkType());
        assertEquals(1_700_000_000_123_456_789L, pb.nanos());
        // Without the snaplen limit an SPB's data is its original length, not the block's padding.
        assertArrayEquals(Arrays.copyOf(a, 3), r.frames.get(2).bytes());
        // An SPB has no timestamp: it takes its predecessor's, so time ordering leaves it where it is.
        assertEquals(0L, spb.nanos());
        assertEquals(1_700_000_000_123_456_789L, r.frames.get(2).nanos());
    }

    @Test
    void unknownBlocksAreSkippedQuietly() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN, PcapngWriter.comment("made by a test"));
        w.block(PcapngWriter.NRB, new byte[] {0, 0, 0, 0});
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.block(PcapngWriter.DSB, new byte[16]);
        w.epb(0, 1, new byte[] {0x45});
        w.block(PcapngWriter.ISB, new byte[20]);
        w.block(PcapngWriter.CUSTOM, new byte[] {1, 2, 3, 4, 5});
        w.block(0x7fff_1234, new byte[0]);
        w.block(0x8000_0001, new byte[] {1});
        w.epb(0, 2, new byte[] {0x46});
        ReadAll r = read(write(dir, "unknown.pcapng", w.toByteArray()));

        assertNull(r.failure);
        assertEquals(List.of(), r.problems);
        assertEquals(List.of(1000L, 2000L), r.times());
        assertEquals(2, r.stats.frames);
        assertEquals(0, r.stats.skippedRecords);
    }

    @Test
    void severalSectionsInDifferentByteOrdersEachWithTheirOwnInterfaces() throws Exception {
        byte[] x = {0x45, 1};
        byte[] y = {0x60, 2};
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_ETHERNET, 0, ifName("eth0"));
        w.idb(LinkBuilder.LINKTYPE_LINUX_SLL2, 0, ifName("any"), tsresol(9));
        w.epb(1, 5_000_000_000L, x);
        w.section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, ifName("wg0"), tsresol(9));
        w.epb(0, 6_000_000_001L, y);
        int missing = w.offset();
        w.epb(1, 7_000_000_000L, y); // the first section's interface 1 is gone
        w.section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_IPV6, 0);
        w.epb(0, 8_000_000L, y);
        Path p = write(dir, "sections.pcapng", w.toByteArray());
        ReadAll r = read(p);

        assertNull(r.failure);
        assertEquals(List.of(5_000_000_000L, 6_000_000_001L, 8_000_000_000L), r.times());
        assertEquals(List.of(276, 101, 229), r.frames.stream().map(ReadAll.Copy::linkType).toList());
        assertEquals(Arrays.asList("any", "wg0", null), r.frames.stream().map(ReadAll.Copy::interfaceName).toList());
        assertEquals(List.of(1L, 2L, 3L), r.frames.stream().map(ReadAll.Copy::number).toList());
        assertEquals(1, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), missing);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(3, r.stats.frames);
    }

    @Test
    void packetBeforeAnyInterfaceIsSkipped() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        int epb = w.offset();
        w.epb(0, 1, new byte[] {1});
        int spb = w.offset();
        w.spb(new byte[] {2}, 1);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 3, new byte[] {3});
        Path p = write(dir, "noif.pcapng", w.toByteArray());
        ReadAll r = read(p);
        assertEquals(1, r.frames.size());
        assertArrayEquals(new byte[] {3}, r.frames.get(0).bytes());
        assertEquals(2, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), epb);
        assertOneLine(r.problems.get(1).oneLine(), p.toString(), spb);
        assertEquals(2, r.stats.skippedRecords);
    }

    static Stream<Arguments> badLengths() {
        return Stream.of(Arguments.of(30L), Arguments.of(33L), Arguments.of(8L), Arguments.of(0xffff_fff0L));
    }

    @ParameterizedTest
    @MethodSource("badLengths")
    void impossibleBlockLengthEndsReadingAtItsOffset(long length) throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        int bad = w.offset();
        w.rawBlock(PcapngWriter.EPB, length, new byte[20], length);
        w.epb(0, 2, new byte[] {2});
        byte[] file = w.toByteArray();
        Path p = write(dir, "badlen.pcapng", file);
        ReadAll r = read(p);

        assertEquals(1, r.frames.size());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        // The offset of the length field itself.
        assertOneLine(r.failure.oneLine(), p.toString(), bad + 4);
        assertTrue(r.failure.getMessage().contains(Long.toString(length)), r.failure.getMessage());
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(file.length - bad, r.stats.skippedBytes);
        assertEquals(file.length, r.stats.bytes);
    }

    @Test
    void trailingLengthMismatchSkipsTheBlockAndGoesOn() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(9));
        w.epb(0, 1, new byte[] {1});
        int bad = w.offset();
        byte[] body = new io.pcapdiag.testing.Buf(ByteOrder.LITTLE_ENDIAN).u32(0).u32(0).u32(2).u32(4).u32(4)
                .bytes(new byte[] {2, 2, 2, 2}).toByteArray();
        w.rawBlock(PcapngWriter.EPB, 12 + body.length, body, 12 + body.length + 4);
        w.epb(0, 3, new byte[] {3});
        Path p = write(dir, "trailer.pcapng", w.toByteArray());
        ReadAll r = read(p);

        assertNull(r.failure);
        assertEquals(List.of(1L, 3L), r.times());
        assertEquals(1, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), bad);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(2, r.stats.frames);
    }

    @Test
    void capturedLengthBeyondTheBlockIsSkipped() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(9));
        int bad = w.offset();
        w.epbClaiming(0, 1, 500, new byte[] {1, 2, 3, 4});
        w.epb(0, 2, new byte[] {5});
        Path p = write(dir, "caplen.pcapng", w.toByteArray());
        ReadAll r = read(p);
        assertEquals(List.of(2L), r.times());
        assertEquals(1, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), bad);
        assertEquals(1, r.stats.skippedRecords);
    }

    @Test
    void blockCutOffByTheEndOfTheFile() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        int cut = w.offset();
        w.epb(0, 2, new byte[100]);
        byte[] file = Arrays.copyOf(w.toByteArray(), cut + 50);
        Path p = write(dir, "cut.pcapng", file);
        ReadAll r = read(p);
        assertEquals(1, r.frames.size());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        assertOneLine(r.failure.oneLine(), p.toString(), cut);
        assertEquals(1, r.stats.skippedRecords);
        assertEquals(file.length, r.stats.bytes);

        // Cut inside the 12-byte block header.
        Path q = write(dir, "cut2.pcapng", Arrays.copyOf(w.toByteArray(), cut + 5));
        ReadAll r2 = read(q);
        assertEquals(1, r2.frames.size());
        assertOneLine(r2.failure.oneLine(), q.toString(), cut);
    }

    @Test
    void badByteOrderMagicInALaterSection() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        int second = w.offset();
        w.section(ByteOrder.LITTLE_ENDIAN);
        byte[] file = w.toByteArray();
        file[second + 8] = 0x11; // spoil the byte-order magic
        Path p = write(dir, "bom.pcapng", file);
        ReadAll r = read(p);
        assertEquals(1, r.frames.size());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        assertOneLine(r.failure.oneLine(), p.toString(), second + 8);
    }

    @Test
    void truncatedSectionHeader() throws Exception {
        byte[] file = Arrays.copyOf(new PcapngWriter().section(ByteOrder.BIG_ENDIAN).toByteArray(), 10);
        Path p = write(dir, "shb.pcapng", file);
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 0);
    }

    @Test
    void idbTooShortMakesItsPacketsUndecodableButKeepsTheNumbering() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        int idb = w.offset();
        w.block(PcapngWriter.IDB, new byte[4]); // 16-byte IDB: no room for link type and snaplen
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, ifName("ok"));
        w.epb(1, 1, new byte[] {1});
        Path p = write(dir, "shortidb.pcapng", w.toByteArray());
        ReadAll r = read(p);
        // The short IDB still takes id 0, so the packet on interface 1 keeps its interface.
        assertEquals(1, r.frames.size());
        assertEquals("ok", r.frames.get(0).interfaceName());
        assertEquals(1, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), idb);
    }

    @Test
    void problemsBeyondTwentyAreCountedNotPrinted() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        for (int i = 0; i < 25; i++) {
            w.epb(7, i, new byte[] {1});
        }
        w.epb(0, 99, new byte[] {2});
        Path p = write(dir, "many.pcapng", w.toByteArray());
        ReadAll r = read(p);
        assertEquals(1, r.frames.size());
        assertEquals(21, r.problems.size(), "20 lines and one saying more follow");
        assertTrue(r.problems.get(20).getMessage().contains("more problems"), r.problems.get(20).getMessage());
        for (CaptureException e : r.problems) {
            assertTrue(e.oneLine().startsWith(p + ": offset "), e.oneLine());
        }
        assertEquals(25, r.stats.skippedRecords, "every skipped record is counted");
    }

    @Test
    void blockLargerThanTheReadWindow() throws Exception {
        byte[] big = new byte[5 << 20];
        new java.util.Random(9).nextBytes(big);
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        w.epb(0, 2, big);
        w.epb(0, 3, new byte[] {3});
        ReadAll r = read(write(dir, "big.pcapng", w.toByteArray()));
        assertNull(r.failure);
        assertEquals(3, r.frames.size());
        assertArrayEquals(big, r.frames.get(1).bytes());
        assertArrayEquals(new byte[] {3}, r.frames.get(2).bytes());
    }

    @Test
    void simplePacketBlockShorterThanItsHeaderIsSkippedAndTheRestIsRead() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        int spb = w.offset();
        w.block(PcapngWriter.SPB, new byte[0]); // 12 bytes: no room for the original length
        w.epb(0, 5, new byte[] {5});
        Path p = write(dir, "spb12.pcapng", w.toByteArray());
        ReadAll r = read(p);
        assertNull(r.failure);
        assertEquals(1, r.frames.size());
        assertArrayEquals(new byte[] {5}, r.frames.get(0).bytes());
        assertEquals(1, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), spb);
        assertEquals(1, r.stats.skippedRecords);
    }

    /** The first section header with its version (at offset 12, 14) set. */
    private static byte[] withVersion(byte[] file, int at, int major, int minor) {
        java.nio.ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putShort(at + 12, (short) major)
                .putShort(at + 14, (short) minor);
        return file;
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"1,1", "1,3", "2,0", "0,0"})
    void versionsLibpcapRefusesAreRefusedAtOpen(int major, int minor) throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        Path p = write(dir, "v.pcapng", withVersion(w.toByteArray(), 0, major, minor));
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), 12);
        assertTrue(e.getMessage().contains(major + "." + minor), e.getMessage());
    }

    @Test
    void versionOnePointTwoIsReadAsLibpcapDoes() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        ReadAll r = read(write(dir, "v12.pcapng", withVersion(w.toByteArray(), 0, 1, 2)));
        assertNull(r.failure);
        assertEquals(1, r.frames.size());
    }

    @Test
    void laterSectionOfVersionOnePointOneEndsTheReadWithItsOffset() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        int second = w.offset();
        w.section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 2, new byte[] {2});
        Path p = write(dir, "v11later.pcapng", withVersion(w.toByteArray(), second, 1, 1));
        ReadAll r = read(p);
        assertEquals(1, r.frames.size());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        assertOneLine(r.failure.oneLine(), p.toString(), second + 12);
        assertTrue(r.stats.skippedBytes > 0, "the section that is not read is counted");
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"4,3", "4,12", "4,30", "8,0"})
    void invalidFirstSectionHeaderIsNotACapture(int at, int value) throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0);
        w.epb(0, 1, new byte[] {1});
        byte[] file = w.toByteArray();
        java.nio.ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        Path p = write(dir, "shb.pcapng", file);
        CaptureException e = assertThrows(CorruptCaptureException.class, () -> CaptureTesting.open(p));
        assertOneLine(e.oneLine(), p.toString(), at);
    }

    @Test
    void timestampOffsetBeyondWhatNanosecondsHoldIsSkippedWithALine() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, w.tsoffset(Long.MAX_VALUE / 2));
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(0));
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(9));
        int first = w.offset();
        w.epb(0, 1, new byte[] {1});
        int second = w.offset();
        w.epb(1, -1L, new byte[] {2}); // 2^64-1 whole seconds
        w.epb(2, 7, new byte[] {3});
        Path p = write(dir, "tsoffset.pcapng", w.toByteArray());
        ReadAll r = read(p);
        assertNull(r.failure);
        assertEquals(1, r.frames.size());
        assertEquals(List.of(7L), r.times());
        assertEquals(2, r.problems.size());
        assertOneLine(r.problems.get(0).oneLine(), p.toString(), first);
        assertOneLine(r.problems.get(1).oneLine(), p.toString(), second);
        assertEquals(2, r.stats.skippedRecords);
        assertEquals(1, r.stats.frames, "skipped records are not frames");
    }
}
