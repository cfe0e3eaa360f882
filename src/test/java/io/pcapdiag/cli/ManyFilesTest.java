package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory does not grow with the number of files on the command line: 400 captures, pcap and pcapng, analysed in a
 * JVM of 128 MiB (each open capture used to take a 4 MiB window up front, and 32 MiB more for pcapng: ~125 files
 * exhausted the 512 MiB the launcher gives).
 */
class ManyFilesTest {
    @TempDir
    Path dir;

    @Test
    void fourHundredCapturesInA128MiBHeap() throws Exception {
        Path pcap = CliRun.projectDir().resolve("captures/closed-port/any.pcap");
        Path pcapng = CliRun.projectDir().resolve("captures/closed-port/multi.pcapng");
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "analyze", "--format", "json"));
        for (int i = 0; i < 400; i++) {
            Path src = i % 2 == 0 ? pcap : pcapng;
            Path copy = dir.resolve(String.format(java.util.Locale.ROOT, "%03d-%s", i, src.getFileName()));
            Files.copy(src, copy);
            cmd.add(copy.toString());
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertFalse(err.contains("OutOfMemoryError"), err);
        assertEquals(0, p.exitValue(), err);
        String json = new String(out, StandardCharsets.UTF_8);
        assertEquals(400, json.split("\"analysed\" *: *true", -1).length - 1, "every capture is read");
    }
}
