package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGQUIT (kill -3, Ctrl-\) makes the JVM print a thread dump; the launcher sends it to standard error, so that the
 * report on standard output stays what a machine parses: one JSON document, or one JSON value per line under live.
 * Slow: it needs the package phase's installation (and root for live).
 */
@Tag("slow")
class LauncherThreadDumpTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Starts the launcher, waits for the JVM to handle signals, sends SIGQUIT, waits for the dump on stderr. */
    private static Process startAndQuit(Path dir, List<String> args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Stream.concat(Stream.of(PROJECT.resolve("scripts/pcapdiag").toString()),
                args.stream()).toList()).directory(PROJECT.toFile());
        pb.redirectOutput(dir.resolve("out").toFile());
        pb.redirectError(dir.resolve("err").toFile());
        Process p = pb.start();
        // The launcher execs java: the same process, handling SIGQUIT once its signal thread runs.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!signalThread(p.pid())) {
            assertTrue(p.isAlive(), "ended before SIGQUIT: " + Files.readString(dir.resolve("err")));
            assertTrue(System.nanoTime() < deadline, "no Signal Dispatcher thread in " + p.pid());
            Thread.sleep(50);
        }
        assertEquals(0, new ProcessBuilder("kill", "-QUIT", Long.toString(p.pid())).start().waitFor());
        while (!Files.readString(dir.resolve("err")).contains("Full thread dump")) {
            assertTrue(System.nanoTime() < deadline, "no thread dump on stderr: " + Files.readString(dir.resolve("err")));
            Thread.sleep(50);
        }
        return p;
    }

    private static boolean signalThread(long pid) throws Exception {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        try (Stream<Path> s = Files.list(tasks)) {
            return s.anyMatch(t -> {
                try {
                    return Files.readString(t.resolve("comm")).strip().equals("Signal Dispatch");
                } catch (java.io.IOException e) {
                    return false;
                }
            });
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Test
    void analyzeJsonStaysOneDocument(@TempDir Path dir) throws Exception {
        // Reading its capture from standard input, which stays open until the dump is out.
        Process p = startAndQuit(dir, List.of("analyze", "--format", "json", "-"));
        try (OutputStream in = p.getOutputStream()) {
            in.write(Files.readAllBytes(PROJECT.resolve("captures/hairpin-no-brnf/any.pcap")));
        }
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err")));
        assertFalse(out.contains("Full thread dump"), out);
        assertEquals(1, JSON.readTree(out).get("findings").size(), out);
    }

    @Test
    void liveJsonLinesStayJsonLines(@TempDir Path dir) throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        if (!new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().equals("0")) {
            if (CliRun.inCi()) {
                fail("live needs root, and CI runs as root");
            }
            Assumptions.abort("live needs root");
        }
        Process p = startAndQuit(dir, List.of("live", "-i", "lo", "--format", "jsonl", "--duration", "10s"));
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err")));
        assertFalse(out.isEmpty());
        for (String line : out.lines().toList()) {
            assertTrue(JSON.readTree(line).isObject(), line);
        }
        assertTrue(out.lines().anyMatch(l -> l.startsWith("{\"event\":\"report\"")), out);
    }
}
