package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --write}'s own pcap writer: tcpdump reads what it writes (nanosecond stamps, captured and original
 * lengths), files are 0600, existing files and symbolic links are refused, and rotation splits by size.
 */
class PcapFileWriterTest {
    private static byte[] frame(int n, int len) {
        byte[] b = new byte[len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) (n + i);
        }
        return b;
    }

    @Test
    void tcpdumpReadsWhatItWrites(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("w.pcap");
        try (PcapFileWriter w = new PcapFileWriter(f, 1, 200, false, 0)) {
            w.write(1_732_190_400_123_456_789L, frame(1, 60), 60);
            w.write(1_732_190_401_000_000_001L, frame(2, 200), 1514); // cut by the snap length
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        String out = tcpdump(f);
        List<String> lines = out.lines().filter(l -> l.startsWith("2024")).toList();
        assertEquals(2, lines.size(), out);
        assertTrue(lines.get(0).startsWith("2024-11-21 12:00:00.123456789 "), lines.get(0));
        assertTrue(lines.get(1).startsWith("2024-11-21 12:00:01.000000001 "), lines.get(1));
        // pcapdiag's own reader agrees on the lengths.
        List<int[]> lengths = new ArrayList<>();
        try (FrameSource s = CaptureFiles.open(new io.pcapdiag.capture.Capture(0, f.toString()))) {
            Frame fr;
            while ((fr = s.next()) != null) {
                lengths.add(new int[] {fr.capLen, fr.origLen});
            }
        }
        assertEquals(2, lengths.size());
        assertEquals(200, lengths.get(1)[0]);
        assertEquals(1514, lengths.get(1)[1]);
    }

    @Test
    void existingFilesAndLinksAreRefused(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("old.pcap"), "old");
        IOException e = assertThrows(IOException.class, () -> new PcapFileWriter(f, 1, 200, false, 0));
        assertEquals(f + " exists: not overwriting it (--force to overwrite)", e.getMessage());
        assertEquals("old", Files.readString(f));
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        try (PcapFileWriter w = new PcapFileWriter(f, 1, 200, true, 0)) {
            w.write(0, frame(0, 60), 60);
        }
        assertEquals(24 + 16 + 60, Files.size(f), "--force truncates");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), "and takes the mode back");

        Path target = Files.writeString(dir.resolve("target"), "x");
        Path link = Files.createSymbolicLink(dir.resolve("link.pcap"), target);
        for (boolean force : new boolean[] {false, true}) {
            IOException l = assertThrows(IOException.class, () -> new PcapFileWriter(link, 1, 200, force, 0));
            assertEquals(link + " is a symbolic link: refusing to write through it", l.getMessage());
        }
        assertEquals("x", Files.readString(target));
    }

    /** A file that cannot be made says why in words: it said "NoSuchFile (/the/path)", an exception's name. */
    @Test
    void aFileThatCannotBeMadeSaysWhy(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("nope").resolve("x.pcap");
        IOException e = assertThrows(IOException.class, () -> new PcapFileWriter(missing, 1, 200, false, 0));
        assertEquals(missing + ": cannot create it: no such directory", e.getMessage());
        Path underFile = Files.writeString(dir.resolve("plain"), "x").resolve("x.pcap");
        IOException f = assertThrows(IOException.class, () -> new PcapFileWriter(underFile, 1, 200, true, 0));
        assertEquals(underFile + ": cannot create it: Not a directory", f.getMessage());
    }

    @Test
    void rotationSplitsBySizeAndLosesNothing(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("live.pcap");
        List<Path> files;
        try (PcapFileWriter w = new PcapFileWriter(f, 1, 2000, false, 64 * 1024)) {
            for (int i = 0; i < 300; i++) {
                w.write(1_000_000_000L * i, frame(i, 1000), 1000);
            }
            files = w.files();
        }
        assertEquals(List.of(f, dir.resolve("live.1.pcap"), dir.resolve("live.2.pcap"), dir.resolve("live.3.pcap"),
                dir.resolve("live.4.pcap")), files);
        long packets = 0;
        for (Path p : files) {
            assertTrue(Files.size(p) <= 64 * 1024, p + " is " + Files.size(p));
            packets += tcpdump(p).lines().filter(l -> l.startsWith("19")).count();
        }
        assertEquals(300, packets);
    }

    private static String tcpdump(Path f) throws Exception {
        Process p = new ProcessBuilder("tcpdump", "-nn", "-tttt", "--time-stamp-precision=nano", "-r", f.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
