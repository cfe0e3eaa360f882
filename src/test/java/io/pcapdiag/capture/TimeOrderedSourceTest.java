package io.pcapdiag.capture;

import static io.pcapdiag.capture.CaptureTesting.open;
import static io.pcapdiag.capture.CaptureTesting.write;
import static io.pcapdiag.testing.PcapngWriter.ifName;
import static io.pcapdiag.testing.PcapngWriter.tsresol;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PcapngWriter;
import io.pcapdiag.testing.ReadAll;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dumpcap writes interfaces in bursts: the analysis reads pcapng through a time-ordering window. */
class TimeOrderedSourceTest {
    @TempDir
    Path dir;

    @Test
    void burstsOfTwoInterfacesComeOutInTimeOrderWithTheirOwnNumbersAndNames() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_ETHERNET, 0, ifName("eth0"), tsresol(9));
        w.idb(LinkBuilder.LINKTYPE_LINUX_SLL2, 0, ifName("cni0"), tsresol(9));
        for (int t : new int[] {1, 3, 5}) {
            w.epb(0, t, new byte[] {(byte) t});
        }
        for (int t : new int[] {2, 4, 6}) {
            w.epb(1, t, new byte[] {(byte) t, 0});
        }
        FrameSource plain = open(write(dir, "bursts.pcapng", w.toByteArray()));
        assertTrue(plain.interleavesInterfaces());
        ReadAll r = ReadAll.of(new TimeOrderedSource(plain));
        assertNull(r.failure);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), r.times());
        assertEquals(List.of(1L, 4L, 2L, 5L, 3L, 6L), r.frames.stream().map(ReadAll.Copy::number).toList(),
                "frame numbers stay those of the file, as Wireshark shows them");
        assertEquals(List.of("eth0", "cni0", "eth0", "cni0", "eth0", "cni0"),
                r.frames.stream().map(ReadAll.Copy::interfaceName).toList());
        assertEquals(List.of(1, 276, 1, 276, 1, 276), r.frames.stream().map(ReadAll.Copy::linkType).toList());
        for (ReadAll.Copy c : r.frames) {
            assertEquals((byte) c.nanos(), c.bytes()[0], "bytes travel with their frame");
        }
        assertEquals(6, r.stats.frames);
    }

    @Test
    void equalTimesKeepFileOrder() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.BIG_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, ifName("a"));
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, ifName("b"));
        for (int i = 0; i < 10; i++) {
            w.epb(i % 2, 7, new byte[] {(byte) i});
        }
        ReadAll r = ReadAll.of(new TimeOrderedSource(open(write(dir, "ties.pcapng", w.toByteArray()))));
        for (int i = 0; i < 10; i++) {
            assertArrayEquals(new byte[] {(byte) i}, r.frames.get(i).bytes());
        }
    }

    @Test
    void aFatalErrorComesAfterTheFramesReadBeforeIt() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(9));
        w.epb(0, 30, new byte[] {3});
        w.epb(0, 10, new byte[] {1});
        w.epb(0, 20, new byte[] {2});
        int bad = w.offset();
        w.rawBlock(PcapngWriter.EPB, 33, new byte[24], 33);
        Path p = write(dir, "fatal.pcapng", w.toByteArray());
        ReadAll r = ReadAll.of(new TimeOrderedSource(open(p)));
        assertEquals(List.of(10L, 20L, 30L), r.times());
        assertInstanceOf(CorruptCaptureException.class, r.failure);
        CaptureTesting.assertOneLine(r.failure.oneLine(), p.toString(), bad + 4);
    }

    @Test
    void recoverableProblemsStillReachTheSink() throws Exception {
        PcapngWriter w = new PcapngWriter().section(ByteOrder.LITTLE_ENDIAN);
        w.idb(LinkBuilder.LINKTYPE_RAW, 0, tsresol(9));
        w.epb(0, 2, new byte[] {2});
        int missing = w.offset();
        w.epb(5, 1, new byte[] {1});
        w.epb(0, 1, new byte[] {1});
        Path p = write(dir, "problem.pcapng", w.toByteArray());
        ReadAll r = ReadAll.of(new TimeOrderedSource(open(p)));
        assertEquals(List.of(1L, 2L), r.times());
        assertEquals(1, r.problems.size());
        CaptureTesting.assertOneLine(r.problems.get(0).oneLine(), p.toString(), missing);
        assertEquals(1, r.stats.skippedRecords);
    }
}
