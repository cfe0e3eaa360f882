package io.pcapdiag.lab;

import org.junit.jupiter.api.Tag;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.cli.Main;
import io.pcapdiag.testing.Launcher;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-records every lab scenario on this kernel (scripts/lab/run, root and network namespaces) and checks
 * that the fresh recordings give the same findings — pattern, client, target, responder — as the
 * committed captures' goldens. Ports, ISNs and timing differ between runs; the findings must not.
 * Skips where it cannot run, except in CI, where a skip is a failure.
 */
@Tag("slow")
class LabTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void freshRecordingsGiveTheCommittedFindings(@TempDir Path out) throws Exception {
        Path project = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
        String why = cannotRun();
        if (why != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("the lab test must run in CI, but " + why);
            }
            Assumptions.abort(why);
        }
        ProcessBuilder pb = new ProcessBuilder(project.resolve("scripts/lab/run").toString(), "--out", out.toString())
                .redirectErrorStream(true);
        // node-facts runs from the classes under test, not from a jar a build may or may not have made.
        Path bin = Files.createDirectories(out.resolveSibling(out.getFileName() + "-bin"));
        pb.environment().put("PDLAB_PCAPDIAG", Launcher.script(bin).toString());
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "lab did not finish");
        assertEquals(0, p.exitValue(), "scripts/lab/run failed:\n" + log);

        List<String> fresh;
        try (Stream<Path> s = Files.walk(out, 2)) {
            fresh = s.filter(x -> x.getFileName().toString().endsWith(".pcap") || x.getFileName().toString().endsWith(".pcapng"))
                    .map(x -> out.relativize(x).toString()).sorted().toList();
        }
        assertFalse(fresh.isEmpty(), "the lab recorded nothing:\n" + log);
        List<String> mismatches = new ArrayList<>();
        int compared = 0;
        for (String name : fresh) {
            Path golden = project.resolve("captures").resolve(name + ".expected.json");
            if (!Files.exists(golden)) {
                mismatches.add(name + ": recorded by the lab but not committed under captures/ with a golden");
                continue;
            }
            Map<String, Integer> expected = findingKeys(Files.readString(golden));
            Map<String, Integer> actual = findingKeys(analyze(out.resolve(name)));
            compared++;
            if (!expected.keySet().equals(actual.keySet())) {
                mismatches.add(name + ": committed " + expected.keySet() + ", fresh " + actual.keySet());
            }
        }
        System.out.println("lab: " + compared + " fresh recordings compared with their committed goldens");
        assertEquals(List.of(), mismatches);
    }

    private static String analyze(Path capture) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.run(new String[] {"analyze", "--format", "json", capture.toString()}, new PrintWriter(o), new PrintWriter(e));
        assertEquals(0, code, capture + ": " + e);
        return o.toString();
    }

    /** pattern client target responder → attempts; attempts vary with timing, so only the keys are compared. */
    private static Map<String, Integer> findingKeys(String json) throws IOException {
        Map<String, Integer> m = new TreeMap<>();
        for (JsonNode f : JSON.readTree(json).get("findings")) {
            m.put(f.get("pattern").asText() + " " + f.get("client").asText() + " -> " + f.get("target").asText()
                    + " by " + f.get("responder").asText(), f.get("attempts").asInt());
        }
        return m;
    }

    /** Null when the lab can run here; else why not. */
    private static String cannotRun() {
        try {
            Process id = new ProcessBuilder("id", "-u").start();
            String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            id.waitFor();
            if (!"0".equals(uid)) {
                return "not root (the lab creates network namespaces)";
            }
            Process ns = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            ns.getInputStream().readAllBytes();
            if (ns.waitFor() != 0) {
                return "ip netns does not work here";
            }
        } catch (IOException | InterruptedException e) {
            return "cannot run id/ip: " + e.getMessage();
        }
        for (String tool : new TreeSet<>(List.of("tcpdump", "dumpcap", "iptables"))) {
            if (!onPath(tool)) {
                return tool + " is not installed (scripts/lab/install-deps)";
            }
        }
        return null;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
