package io.pcapdiag.collect;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ustar archives of bundles, against GNU tar: each reads what the other writes; nothing unpacks outside. */
class TarTest {
    @Test
    void gnuTarUnpacksWhatCollectWrites(@TempDir Path tmp) throws Exception {
        assumeTar();
        Path dir = Files.createDirectories(tmp.resolve("in"));
        byte[] big = new byte[70_000];
        new Random(7).nextBytes(big);
        Files.write(dir.resolve("any.pcap"), big);
        Files.writeString(dir.resolve("manifest.json"), "{\"bundle\": 1}\n");
        Files.write(dir.resolve("empty.json"), new byte[0]);
        Path archive = tmp.resolve("b.tar.gz");
        try (var o = Files.newOutputStream(archive)) {
            Bundle.pack(dir, "pcapdiag-node-a-20261127T000000Z", 1_700_000_000L, o);
        }
        Path out = Files.createDirectories(tmp.resolve("out"));
        assertEquals("", run("tar", "xzf", archive.toString(), "-C", out.toString()));
        Path top = out.resolve("pcapdiag-node-a-20261127T000000Z");
        for (String f : List.of("any.pcap", "manifest.json", "empty.json")) {
            assertArrayEquals(Files.readAllBytes(dir.resolve(f)), Files.readAllBytes(top.resolve(f)), f);
        }
        String listing = run("tar", "tzvf", archive.toString());
        assertTrue(listing.lines().skip(1).findFirst().orElse("").endsWith("/manifest.json"), "manifest first:\n" + listing);
    }

    @Test
    void whatGnuTarWritesIsUnpackedLongNamesIncluded(@TempDir Path tmp) throws Exception {
        assumeTar();
        String longName = "x".repeat(120) + ".pcap";
        Path dir = Files.createDirectories(tmp.resolve("src").resolve("bundle"));
        Files.writeString(dir.resolve("manifest.json"), "{}");
        Files.writeString(dir.resolve(longName), "long");
        Files.createSymbolicLink(dir.resolve("link"), Path.of("/etc/passwd"));
        for (String format : List.of("gnu", "pax", "ustar")) {
            if (format.equals("ustar")) {
                Files.delete(dir.resolve(longName)); // ustar cannot hold a 125-byte name in one part
            }
            Path archive = tmp.resolve(format + ".tar.gz");
            run("tar", "--format=" + format, "-czf", archive.toString(), "-C", tmp.resolve("src").toString(), "bundle");
            Path out = Files.createDirectories(tmp.resolve("out-" + format));
            String top;
            try (InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(archive))) {
                top = Tar.read(in, out);
            }
            assertEquals("bundle", top, format);
            assertEquals("{}", Files.readString(out.resolve("bundle/manifest.json")), format);
            if (!format.equals("ustar")) {
                assertEquals("long", Files.readString(out.resolve("bundle").resolve(longName)), format);
            }
            assertFalse(Files.exists(out.resolve("bundle/link"), java.nio.file.LinkOption.NOFOLLOW_LINKS), format + ": a link is never unpacked");
        }
    }

    @Test
    void anEntryThatWouldLeaveTheDirectoryEndsTheUnpacking(@TempDir Path tmp) throws Exception {
        for (String name : List.of("../evil", "/etc/evil", "a/../../evil")) {
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            Path src = Files.createDirectories(tmp.resolve("src"));
            Files.writeString(src.resolve("f"), "x");
            // A well-formed archive whose one file is named NAME: written under a placeholder, then renamed in the header.
            Tar.write(src, List.of("f"), "t", 0, raw);
            byte[] bytes = raw.toByteArray();
            byte[] file = java.util.Arrays.copyOfRange(bytes, 512, 1024);
            java.util.Arrays.fill(file, 0, 100, (byte) 0);
            byte[] n = name.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            System.arraycopy(n, 0, file, 0, n.length);
            java.util.Arrays.fill(file, 148, 156, (byte) ' ');
            long sum = 0;
            for (byte b : file) {
                sum += b & 0xff;
            }
            byte[] chk = String.format("%06o\0 ", sum).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            System.arraycopy(chk, 0, file, 148, 8);
            System.arraycopy(file, 0, bytes, 512, 512);
            Path out = Files.createDirectories(tmp.resolve("out").resolve(Integer.toString(name.length())));
            IOException e = assertThrows(IOException.class, () -> Tar.read(new ByteArrayInputStream(bytes), out));
            assertTrue(e.getMessage().contains("would be unpacked outside the directory"), e.getMessage());
            assertFalse(Files.exists(tmp.resolve("out/evil")));
            assertFalse(Files.exists(tmp.resolve("evil")));
        }
    }

    @Test
    void aCutArchiveIsAnErrorNotAHang() {
        IOException e = assertThrows(IOException.class, () -> Tar.read(new ByteArrayInputStream(new byte[100]), Path.of("/nonexistent")));
        assertTrue(e.getMessage().contains("cut short"), e.getMessage());
    }

    private static void assumeTar() throws Exception {
        Assumptions.assumeTrue(new ProcessBuilder("sh", "-c", "command -v tar").start().waitFor() == 0, "no tar");
    }

    private static String run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
        return out;
    }
}
