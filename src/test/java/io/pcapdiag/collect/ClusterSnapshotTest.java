package io.pcapdiag.collect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.pcapdiag.cli.Main;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster snapshot collect takes, against the fabric8 mock API server in CRUD mode loaded with a lab scenario's
 * snapshot: it holds every object the server has, and analyze --cluster on it gives the report the lab's own snapshot
 * gives; a server that does not answer is one line per kind, not a hang.
 */
class ClusterSnapshotTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theSnapshotTakenThroughTheApiIsTheOneAnalyzeReads(@TempDir Path tmp) throws Exception {
        Path sc = CaptureFilesOnDisk.projectDir().resolve("captures/hairpin-no-brnf");
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        try (KubernetesClient client = server.createClient()) {
            KubernetesSerialization model = new KubernetesSerialization();
            TreeSet<String> created = new TreeSet<>();
            for (JsonNode item : JSON.readTree(sc.resolve("cluster.json").toFile()).path("items")) {
                HasMetadata o = model.unmarshal(item.toString());
                client.resource(o).create();
                created.add(o.getKind() + " " + o.getMetadata().getNamespace() + "/" + o.getMetadata().getName());
            }
            ClusterSnapshot.Taken taken = ClusterSnapshot.take(client);
            assertEquals(java.util.Map.of(), taken.missing());
            Path file = tmp.resolve("cluster.json");
            ClusterSnapshot.write(taken, file);
            JsonNode list = JSON.readTree(file.toFile());
            assertEquals("List", list.get("kind").asText());
            TreeSet<String> written = new TreeSet<>();
            list.get("items").forEach(i -> written.add(i.get("kind").asText() + " "
                    + (i.get("metadata").has("namespace") ? i.get("metadata").get("namespace").asText() : "null") + "/"
                    + i.get("metadata").get("name").asText()));
            assertEquals(created, written);

            String pcap = sc.resolve("any.pcap").toString();
            String facts = sc.resolve("node-facts.json").toString();
            assertEquals(analyze("--cluster", sc.resolve("cluster.json").toString(), "--node-facts", facts, pcap),
                    analyze("--cluster", file.toString(), "--node-facts", facts, pcap));
        } finally {
            server.destroy();
        }
    }

    @Test
    void aServerThatDoesNotAnswerIsSaidPerKind() {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        io.fabric8.kubernetes.client.Config config = new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + port).build();
        config.setRequestRetryBackoffLimit(0);
        long t0 = System.nanoTime();
        ClusterSnapshot.Taken taken = ClusterSnapshot.take(config);
        assertTrue(taken.objects().isEmpty());
        assertEquals(6, taken.missing().size(), taken.missing().toString());
        assertTrue(System.nanoTime() - t0 < 30_000_000_000L, "took too long");
        taken.missing().values().forEach(why -> assertTrue(!why.contains("\n") && !why.isBlank(), why));
    }

    private static String analyze(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 3];
        all[0] = "analyze";
        all[1] = "--format";
        all[2] = "json";
        System.arraycopy(args, 0, all, 3, args.length);
        assertEquals(0, Main.run(all, new PrintWriter(out), new PrintWriter(err)), err.toString());
        assertTrue(out.toString().contains("\"kind\" : \"service\""), "names a Service");
        return out.toString();
    }
}
