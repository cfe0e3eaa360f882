package io.pcapdiag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster snapshot of a large cluster, 30,000 pods and about 130 MB as {@code kubectl get -o json} writes it,
 * loads through the launcher with its own heap (512 MB): a List's items are read and converted one at a time, never
 * one tree of the whole file (which ran out of that heap on 103 MB), nor the file's bytes: it loads in 160 MB too. In a
 * heap too small for it, the run ends in one line that says so. Slow: it writes the file and runs the launcher three
 * times.
 */
@Tag("slow")
class LargeSnapshotTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aLargeClusterLoadsInTheLaunchersHeap(@TempDir Path dir) throws Exception {
        Path snapshot = dir.resolve("cluster.json");
        writeList(JSON, snapshot, 30_000);
        assertTrue(Files.size(snapshot) > 100_000_000L, Files.size(snapshot) + " bytes");

        String[] out = new String[1];
        assertEquals(0, launcher(snapshot, null, out), out[0]);
        assertFalse(out[0].contains("OutOfMemoryError"), out[0]);
        assertTrue(out[0].lines().anyMatch(l -> l.startsWith("captures/vip-local-reject/any.pcap: 13 packets")), out[0]);
        assertTrue(out[0].contains("1 finding (1 error, 0 warnings)"), out[0]);

        // In 160 MB too, a heap that the file's bytes held whole (130 MB, in a buffer that doubles) would not leave room
        // for the objects: the file is read as it is parsed, and nothing keeps what was read.
        assertEquals(0, launcher(snapshot, "-Xmx160m", out), out[0]);
        assertTrue(out[0].contains("1 finding (1 error, 0 warnings)"), out[0]);

        // In a heap too small for it: one line that says so and how to give it more, exit code 4, no stack trace.
        assertEquals(4, launcher(snapshot, "-Xmx32m", out), out[0]);
        List<String> lines = out[0].lines().toList();
        assertEquals(1, lines.size(), out[0]);
        assertTrue(lines.get(0).matches("pcapdiag: out of memory: the Java heap \\(\\d+ MiB\\) is too small for this input; give"
                + " it more with PCAPDIAG_JAVA_OPTS=-Xmx<size>, e.g\\. -Xmx2g"), out[0]);
    }

    /**
     * The same in YAML, as {@code kubectl get -o yaml} writes it (one List document): 5,000 pods, about 20 MB, load in a
     * 64 MB heap, each item read and converted as it comes. Read as one document (snakeyaml-engine's default, which also
     * refused any document over 3 MiB code points), its tree would not fit.
     */
    @Test
    void aLargeYamlClusterLoadsInASmallHeap(@TempDir Path dir) throws Exception {
        Path snapshot = dir.resolve("cluster.yaml");
        writeList(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper(), snapshot, 5_000);
        assertTrue(Files.size(snapshot) > 15_000_000L, Files.size(snapshot) + " bytes");
        String[] out = new String[1];
        assertEquals(0, launcher(snapshot, "-Xmx64m", out), out[0]);
        assertTrue(out[0].lines().anyMatch(l -> l.startsWith("captures/vip-local-reject/any.pcap: 13 packets")), out[0]);
        assertTrue(out[0].contains("1 finding (1 error, 0 warnings)"), out[0]);
    }

    /**
     * A List of {@code pods} copies of the fixture's pod, other names and addresses, then {@code more}, written one by
     * one by {@code mapper}.
     */
    static void writeList(ObjectMapper mapper, Path file, int pods, JsonNode... more) throws Exception {
        JsonNode fixture = JSON.readTree(PROJECT.resolve("src/test/resources/io/pcapdiag/cluster/full-objects.json").toFile());
        ObjectNode pod = (ObjectNode) fixture.path("items").get(1);
        try (JsonGenerator g = mapper.getFactory().createGenerator(file.toFile(), JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("apiVersion", "v1");
            g.writeArrayFieldStart("items");
            for (int n = 0; n < pods; n++) {
                ObjectNode p = pod.deepCopy();
                ((ObjectNode) p.path("metadata")).put("name", "cart-" + n).put("namespace", "ns" + n % 100);
                String ip = String.format(Locale.ROOT, "10.%d.%d.%d", 100 + n / 65_536, n / 256 % 256, n % 256);
                ((ObjectNode) p.path("status")).put("podIP", ip).putArray("podIPs").addObject().put("ip", ip);
                g.writeTree(p);
            }
            for (JsonNode m : more) {
                g.writeTree(m);
            }
            g.writeEndArray();
            g.writeStringField("kind", "List");
            g.writeEndObject();
        }
    }

    /** analyze of a scenario's capture with the snapshot, by the launcher; its exit code, its output in {@code out}. */
    private static int launcher(Path snapshot, String javaOpts, String[] out) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(PROJECT.resolve("scripts/pcapdiag").toString(), "analyze", "--cluster",
                snapshot.toString(), "captures/vip-local-reject/any.pcap").directory(PROJECT.toFile());
        if (javaOpts != null) {
            pb.environment().put("PCAPDIAG_JAVA_OPTS", javaOpts);
        }
        pb.redirectErrorStream(true);
        Process proc = pb.start();
        out[0] = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(proc.waitFor(5, TimeUnit.MINUTES), "did not finish");
        return proc.exitValue();
    }
}
