package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.report.JsonSchemas;
import io.pcapdiag.testing.SchemaCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every capture of the third-party corpus (../shared/corpus, over 1,400 files, some malformed on purpose)
 * is analysed or rejected with one line naming the file; none crashes or hangs. Where pcapdiag read a
 * file without any problem, its packet count must equal what Wireshark's reader counts ({@code capinfos}). Every
 * report validates against the shipped report schema.
 */
class CorpusSweepTest {
    private static final Duration PER_FILE = Duration.ofSeconds(60);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyCorpusCaptureIsAnalysedOrRejectedInOneLine() throws Exception {
        Path corpus = CliRun.corpusDir();
        if (!Files.isDirectory(corpus)) {
            if (CliRun.inCi()) {
                fail("the corpus sweep must run in CI, but " + corpus + " is missing");
            }
            Assumptions.abort("no corpus at " + corpus);
        }
        List<Path> captures = CaptureFilesOnDisk.under(corpus);
        assertTrue(captures.size() > 1400, "expected over 1,400 corpus captures, found " + captures.size());
        Map<String, Long> peerCounts = capinfosCounts(captures);
        List<String> failures = new ArrayList<>();
        int rejected = 0;
        int compared = 0;
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "corpus-sweep");
            t.setDaemon(true);
            return t;
        });
        try {
            for (Path p : captures) {
                String name = p.toString();
                Future<CliRun> run = pool.submit(() -> CliRun.of("analyze", "--format", "json", name));
                CliRun r;
                try {
                    r = run.get(PER_FILE.toSeconds(), TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    failures.add(name + ": did not finish within " + PER_FILE);
                    pool.shutdownNow();
                    pool = Executors.newSingleThreadExecutor();
                    continue;
                }
                String problem = check(name, r);
                if (problem != null) {
                    failures.add(problem);
                    continue;
                }
                if (r.code() == ExitCodes.NO_INPUT) {
                    rejected++;
                    continue;
                }
                JsonNode cap = JSON.readTree(r.out()).get("captures").get(0);
                Long expected = peerCounts.get(name);
                boolean clean = cap.get("errors").isEmpty() && cap.get("skipped_records").asLong() == 0;
                if (expected != null && clean) {
                    compared++;
                    if (cap.get("packets").asLong() != expected) {
                        failures.add(name + ": " + cap.get("packets").asLong() + " packets, capinfos counted " + expected);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf(java.util.Locale.ROOT, "corpus sweep: %d captures, %d rejected, %d packet counts compared with capinfos%n",
                captures.size(), rejected, compared);
        assertEquals(List.of(), failures);
        if (!peerCounts.isEmpty() || CliRun.inCi()) {
            assertTrue(compared > 1000, "too few packet counts compared with capinfos: " + compared);
        }
    }

    /** Null when the run behaved: exit 0 or 3, JSON on stdout, and every stderr line one line naming the file. */
    private static String check(String name, CliRun r) {
        if (r.code() != ExitCodes.OK && r.code() != ExitCodes.NO_INPUT) {
            return name + ": exit " + r.code() + ": " + r.err();
        }
        for (String line : r.err().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (!line.startsWith("pcapdiag: " + name + ": ") || line.contains("Exception") || line.startsWith("\tat ")) {
                return name + ": stderr line does not name the file in one line: " + line;
            }
        }
        if (r.code() == ExitCodes.NO_INPUT && r.err().isBlank()) {
            return name + ": rejected without saying why";
        }
        try {
            JsonNode doc = JSON.readTree(r.out());
            if (!doc.has("findings") || !doc.has("captures")) {
                return name + ": JSON lacks findings/captures";
            }
            List<String> invalid = SchemaCheck.errors(JsonSchemas.Document.REPORT, doc);
            if (!invalid.isEmpty()) {
                return name + ": the report is not what its schema says: " + invalid;
            }
        } catch (IOException e) {
            return name + ": stdout is not JSON: " + e.getMessage();
        }
        return null;
    }

    /**
     * Packet counts from Wireshark's capinfos, the peer reader; empty when capinfos is not installed
     * (CI installs it: there the comparison must run).
     */
    private static Map<String, Long> capinfosCounts(List<Path> files) throws Exception {
        Map<String, Long> m = new HashMap<>();
        for (int i = 0; i < files.size(); i += 200) {
            List<String> cmd = new ArrayList<>(List.of("capinfos", "-c", "-M", "-T", "-r"));
            files.subList(i, Math.min(files.size(), i + 200)).forEach(f -> cmd.add(f.toString()));
            Process proc;
            try {
                proc = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            } catch (IOException e) {
                if (CliRun.inCi()) {
                    fail("capinfos (Debian package wireshark-common) must be installed in CI: " + e.getMessage());
                }
                return Map.of();
            }
            String out = new String(proc.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            proc.waitFor();
            for (String line : out.split("\n")) {
                int tab = line.lastIndexOf('\t');
                if (tab > 0) {
                    try {
                        m.put(line.substring(0, tab), Long.parseLong(line.substring(tab + 1).trim()));
                    } catch (NumberFormatException ignored) {
                        // capinfos prints a blank count for files it cannot read to the end
                    }
                }
            }
        }
        return m;
    }
}
