package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.testing.Launcher;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's package) scrapes {@code pcapdiag live} in the lab's node namespace while the lab
 * plays closed-port: the target is up, pcapdiag's series are there with their labels, and the lab's refused
 * connection moves the findings counter from 0 to 1.
 */
@Tag("slow")
class PrometheusScrapeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void prometheusScrapesLiveAndTheLabsFindingMovesTheCounter(@TempDir Path dir) throws Exception {
        String why = cannotRun();
        if (why != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("the scrape test must run in CI, but " + why);
            }
            Assumptions.abort(why);
        }
        Path script = dir.resolve("scrape.sh");
        try (InputStream in = PrometheusScrapeTest.class.getResourceAsStream("scrape.sh")) {
            Files.write(script, in.readAllBytes());
        }
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path pcapdiag = Launcher.script(bin);
        Path work = Files.createDirectories(dir.resolve("work"));
        Path out = Files.createDirectories(dir.resolve("lab"));
        Path project = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
        ProcessBuilder pb = new ProcessBuilder(project.resolve("scripts/lab/run").toString(), "--out", out.toString(), "closed-port")
                .redirectErrorStream(true);
        pb.environment().put("PDLAB_LIVE_CMD", script + " " + pcapdiag + " " + work);
        pb.environment().put("PDLAB_LIVE_READY", "both ready");
        pb.environment().put("PDLAB_LIVE_READY_TIMEOUT", "60");
        pb.environment().put("PDLAB_PCAPDIAG", pcapdiag.toString());
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the lab did not finish");
        assertEquals(0, p.exitValue(), "scripts/lab/run failed:\n" + log + "\nprometheus: " + read(work.resolve("prometheus.log")));

        // up == 1, asked until the finding was stored (scrape.sh): empty if no scrape of the target succeeded then.
        JsonNode up = result(work, "up");
        assertEquals(1, up.size(), "the target is up after the finding: " + up);
        assertEquals("1", up.get(0).get("value").get(1).asText(), "the target is up");

        Set<String> names = new TreeSet<>();
        result(work, "series").forEach(s -> names.add(s.get("metric").get("__name__").asText()));
        assertTrue(names.containsAll(Set.of("pcapdiag_attempts_total", "pcapdiag_findings_total", "pcapdiag_capture_interfaces",
                "pcapdiag_capture_packets_total", "pcapdiag_connect_duration_seconds_bucket")), names.toString());

        JsonNode interfaces = result(work, "interfaces").get(0);
        assertEquals("pdlab-node", interfaces.get("metric").get("node").asText(), "every series carries the node");
        assertEquals("1", interfaces.get("value").get(1).asText(), "-i any: one interface captured");

        JsonNode refused = null;
        for (JsonNode f : result(work, "findings")) {
            JsonNode m = f.get("metric");
            // namespace and service are empty without cluster context, and Prometheus stores an empty label as none.
            assertTrue(m.has("pattern") && m.has("node"), m.toString());
            assertTrue(Set.of("__name__", "instance", "job", "node", "pattern", "namespace", "service").containsAll(
                    iterable(m.fieldNames())), "bounded labels only: " + m);
            if (m.get("pattern").asText().equals("connection-refused")) {
                refused = f;
            }
        }
        assertTrue(refused != null, "no connection-refused series: " + result(work, "findings"));
        assertEquals("1", refused.get("value").get(1).asText(), "the lab's refused connection counted once");
        JsonNode range = result(work, "refused_range").get(0).get("values");
        assertEquals("0", range.get(0).get(1).asText(), "scraped at 0 before the finding: " + range);
        assertEquals("1", range.get(range.size() - 1).get(1).asText(), "and at 1 after it: " + range);
        for (JsonNode a : result(work, "attempts")) {
            if (a.get("metric").get("outcome").asText().equals("refused")) {
                assertEquals("1", a.get("value").get(1).asText());
            }
        }
        System.out.println("prometheus scraped live: up 1, " + names.size() + " pcapdiag metric names, "
                + "connection-refused " + range.size() + " samples from 0 to 1");
    }

    private static Set<String> iterable(java.util.Iterator<String> it) {
        Set<String> out = new TreeSet<>();
        it.forEachRemaining(out::add);
        return out;
    }

    private static JsonNode result(Path work, String name) throws IOException {
        JsonNode r = JSON.readTree(work.resolve(name + ".json").toFile());
        assertEquals("success", r.get("status").asText(), r.toString());
        return r.get("data").get("result");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(none)";
        }
    }

    private static String cannotRun() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        id.waitFor();
        if (!"0".equals(uid)) {
            return "not root (the lab creates network namespaces)";
        }
        for (String tool : new String[] {"prometheus", "tcpdump", "iptables"}) {
            boolean found = false;
            for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
                found |= Files.isExecutable(Path.of(d, tool));
            }
            if (!found) {
                return tool + " is not installed (scripts/test installs it)";
            }
        }
        return null;
    }
}
