package io.pcapdiag.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.pcapdiag.cli.Main;
import io.pcapdiag.collect.Bundle;
import io.pcapdiag.collect.Manifest;
import io.pcapdiag.testing.Launcher;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/kubectl-pcapdiag with the real kubectl against the fabric8 mock API server (CRUD mode, with the discovery
 * documents kubectl asks for first): kubectl finds the plugin on the PATH; the pcapdiag pod of a node is found by
 * the DaemonSet's label (a label selector; the mock server selects by labels only, so the node and
 * the phase are filtered from the listing) and only when it runs; the debug pod kubectl debug
 * names is waited for and deleted. exec and debug cannot be served by the mock server: a recorder in front of kubectl
 * (PCAPDIAG_KUBECTL) keeps their command lines, which are compared with what they must be, and answers them as the
 * cluster would (exec's stdout is a bundle of a lab scenario; debug prints the line real kubectl prints). The bundle
 * is then analysed by the pcapdiag beside the plugin, as the separate files would be.
 */
class KubectlPluginTest {
    private static final String DEBUG_POD = "node-debugger-node-a-x7k2p";

    @TempDir
    static Path tmp;
    private static KubernetesMockServer server;
    private static KubernetesClient client;
    private static Path bin;
    private static Path kubeconfig;
    private static Path log;
    private static Path bundle;

    /** The CRUD dispatcher and the discovery documents that kubectl reads before it asks for pods. */
    static final class WithDiscovery extends KubernetesCrudDispatcher {
        @Override
        public MockResponse handleGet(String path) {
            String p = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
            String body = switch (p) {
                case "/api" -> "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":"
                        + "[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"127.0.0.1\"}]}";
                case "/apis" -> "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":[]}";
                case "/api/v1" -> "{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\",\"groupVersion\":\"v1\",\"resources\":["
                        + "{\"name\":\"pods\",\"singularName\":\"pod\",\"namespaced\":true,\"kind\":\"Pod\",\"shortNames\":[\"po\"],"
                        + "\"verbs\":[\"create\",\"delete\",\"get\",\"list\",\"patch\",\"update\",\"watch\"]}]}";
                default -> null;
            };
            return body == null ? super.handleGet(path)
                    : new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json").setBody(body);
        }
    }

    @BeforeAll
    static void cluster() throws Exception {
        if (new ProcessBuilder("sh", "-c", "command -v kubectl").start().waitFor() != 0) {
            // As the manifest tests: scripts/test installs kubernetes-client, and CI must have it.
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                org.junit.jupiter.api.Assertions.fail("kubectl must be installed in CI (scripts/test installs kubernetes-client)");
            }
            org.junit.jupiter.api.Assumptions.abort("kubectl is not installed");
        }
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new WithDiscovery(), false);
        server.init();
        client = server.createClient();
        pod("pcapdiag", "pcapdiag-abcde", "node-a", "Running", Map.of("app.kubernetes.io/name", "pcapdiag"));
        pod("pcapdiag", "pcapdiag-fghij", "node-b", "Running", Map.of("app.kubernetes.io/name", "pcapdiag"));
        pod("pcapdiag", "pcapdiag-pend1", "node-c", "Pending", Map.of("app.kubernetes.io/name", "pcapdiag"));
        pod("pcapdiag", "other-on-a", "node-a", "Running", Map.of("app", "other"));
        pod("kube-system", "pcapdiag-elsewhere", "node-d", "Running", Map.of("app.kubernetes.io/name", "pcapdiag"));

        kubeconfig = tmp.resolve("kubeconfig");
        Files.writeString(kubeconfig, String.join("\n", "apiVersion: v1", "kind: Config", "current-context: mock",
                "clusters:", "- name: mock", "  cluster:", "    server: http://127.0.0.1:" + server.getPort(),
                "contexts:", "- name: mock", "  context:", "    cluster: mock", "    namespace: default", "    user: u",
                "users:", "- name: u", "  user:", "    token: t", ""));
        bin = Files.createDirectories(tmp.resolve("bin"));
        Files.copy(io.pcapdiag.corpus.CaptureFilesOnDisk.projectDir().resolve("scripts/kubectl-pcapdiag"), bin.resolve("kubectl-pcapdiag"),
                java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Launcher.script(bin); // bin/pcapdiag, beside the plugin as in the distribution's bin/

        // A bundle of a lab scenario: what collect -o - streams back through exec.
        Path sc = io.pcapdiag.corpus.CaptureFilesOnDisk.projectDir().resolve("captures/hairpin-no-brnf");
        Path dir = Files.createDirectories(tmp.resolve("collected"));
        for (String f : List.of("any.pcap", "cluster.json", "node-facts.json")) {
            Files.copy(sc.resolve(f), dir.resolve(f));
        }
        new Manifest(Manifest.VERSION, "test", "pdlab-node", "2026-11-24T03:07:06Z", "2026-11-24T03:07:16Z", "any",
                List.of(new Manifest.CaptureFile("any.pcap", "any", "LINUX_SLL2", 47, 0, 0, null)), "node-facts.json",
                "cluster.json", List.of()).write(dir);
        bundle = tmp.resolve("collected.tar.gz");
        try (OutputStream o = Files.newOutputStream(bundle)) {
            Bundle.pack(dir, "pcapdiag-pdlab-node-20261124T030706Z", 1_700_000_000L, o);
        }

        // The recorder: every call's arguments, one per line; exec and debug answered, the rest run by kubectl.
        log = tmp.resolve("kubectl.log");
        Path recorder = tmp.resolve("kubectl-recorder");
        Files.writeString(recorder, "#!/usr/bin/env bash\n"
                + "printf '%s\\n' \"$*\" >>'" + log + "'\n"
                + "for a in \"$@\"; do case $a in -*) ;; *) verb=$a; break ;; esac; done\n"
                + "case $verb in\n"
                + "  exec) cat '" + bundle + "' ;;\n"
                + "  debug) echo 'Creating debugging pod " + DEBUG_POD + " with container debugger on node node-a.' ;;\n"
                + "  *) exec kubectl \"$@\" ;;\n"
                + "esac\n");
        Files.setPosixFilePermissions(recorder, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.destroy();
        }
    }

    private static void pod(String ns, String name, String node, String phase, Map<String, String> labels) {
        var b = new PodBuilder().withNewMetadata().withNamespace(ns).withName(name).withLabels(labels).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("pcapdiag:0.1.0").endContainer().endSpec()
                .withNewStatus().withPhase(phase);
        if (phase.equals("Running")) {
            b.addNewCondition().withType("Ready").withStatus("True").endCondition();
        }
        client.resource(b.endStatus().build()).create();
    }

    @Test
    void captureFindsTheNodesPcapdiagPodExecsCollectAndAnalysesTheBundle() throws Exception {
        Files.deleteIfExists(log);
        Run r = plugin(true, "capture", "node/node-a", "--duration", "5s", "-i", "eth0", "-i", "cni0", "-o",
                tmp.resolve("a.tar.gz").toString(), "--", "--format", "json");
        assertEquals(0, r.code, r.err);
        List<String> calls = Files.readAllLines(log);
        assertEquals(List.of(
                "get pods -n pcapdiag -l app.kubernetes.io/name=pcapdiag -o jsonpath={range .items[*]}{.metadata.name}"
                        + " {.spec.nodeName} {.status.phase}{\"\\n\"}{end}",
                "exec -n pcapdiag pcapdiag-abcde -c pcapdiag -- /opt/pcapdiag/bin/pcapdiag collect -o - --duration 5s -i eth0,cni0"
                        + " --work-dir /dev/shm"),
                calls);
        Path sc = io.pcapdiag.corpus.CaptureFilesOnDisk.projectDir().resolve("captures/hairpin-no-brnf");
        String separate = analyze("--format", "json", "--cluster", sc.resolve("cluster.json").toString(), "--node-facts",
                sc.resolve("node-facts.json").toString(), sc.resolve("any.pcap").toString());
        assertEquals(separate.replace(sc.resolve("any.pcap").toString(), "CAPTURE"),
                r.out.replace(tmp.resolve("pcapdiag-pdlab-node-20261124T030706Z/any.pcap").toString(), "CAPTURE"));
        assertTrue(r.out.contains("\"name\" : \"client-6d8f7b9c4-k2m9x\""), "named from the bundle's snapshot");
    }

    @Test
    void withDebugItStartsAndRemovesADebugPodOnTheNode() throws Exception {
        Files.deleteIfExists(log);
        // The pod kubectl debug would have created, for wait and delete to find on the mock server.
        pod("default", DEBUG_POD, "node-a", "Running", Map.of());
        Run r = plugin(true, "--context=mock", "capture", "node-a", "--debug", "--image", "registry.example/pcapdiag:1",
                "-o", tmp.resolve("d.tar.gz").toString(), "--no-analyze");
        assertEquals(0, r.code, r.err);
        assertEquals(List.of(
                "--context=mock debug node/node-a --profile=sysadmin --image=registry.example/pcapdiag:1 -- sleep infinity",
                "--context=mock wait --for=condition=Ready pod/" + DEBUG_POD + " --timeout=180s",
                "--context=mock exec " + DEBUG_POD + " -c debugger -- /opt/pcapdiag/bin/pcapdiag collect -o - --duration 30s",
                "--context=mock delete pod " + DEBUG_POD + " --wait=false"), Files.readAllLines(log));
        assertNull(client.pods().inNamespace("default").withName(DEBUG_POD).get(), "the debug pod is deleted");
        assertTrue(Files.size(tmp.resolve("d.tar.gz")) > 0);
    }

    @Test
    void aNodeWithoutARunningPcapdiagPodIsOneLine() throws Exception {
        for (String node : List.of("node-c", "node-z", "node-d")) {
            Run r = plugin(true, "capture", "node/" + node, "-o", tmp.resolve(node + ".tar.gz").toString());
            assertEquals(2, r.code, r.err);
            assertTrue(r.err.startsWith("kubectl pcapdiag: no running pcapdiag pod on node " + node + " in namespace pcapdiag"), r.err);
            assertTrue(Files.notExists(tmp.resolve(node + ".tar.gz")));
        }
        Run wrong = plugin(true, "capture", "node/Bad_Name");
        assertEquals(2, wrong.code);
        assertEquals("kubectl pcapdiag: 'Bad_Name' is not a node name\n", wrong.err);
    }

    @Test
    void kubectlRunsThePluginAndItsAnalyzeIsPlainAnalyze() throws Exception {
        Path pcap = io.pcapdiag.corpus.CaptureFilesOnDisk.projectDir().resolve("captures/hairpin-no-brnf/any.pcap");
        Run r = plugin(false, "analyze", "--format", "json", pcap.toString());
        assertEquals(0, r.code, r.err);
        assertEquals(analyze("--format", "json", pcap.toString()), r.out);
    }

    private record Run(int code, String out, String err) {
    }

    /** {@code kubectl pcapdiag ARGS} (kubectl finding the plugin on the PATH), or the plugin through the recorder. */
    private static Run plugin(boolean recorded, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("kubectl", "pcapdiag"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("KUBECONFIG", kubeconfig.toString());
        if (recorded) {
            pb.environment().put("PCAPDIAG_KUBECTL", tmp.resolve("kubectl-recorder").toString());
        }
        pb.environment().remove("PCAPDIAG_IMAGE");
        pb.environment().remove("PCAPDIAG_REMOTE");
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "kubectl pcapdiag " + String.join(" ", args) + " hangs");
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static String analyze(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "analyze";
        System.arraycopy(args, 0, all, 1, args.length);
        assertEquals(0, Main.run(all, new PrintWriter(out), new PrintWriter(err)), err.toString());
        return out.toString();
    }
}
