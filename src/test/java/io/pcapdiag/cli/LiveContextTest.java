package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code pcapdiag live} knows beyond its packets: a kubeconfig naming the fabric8 mock server (CRUD mode)
 * makes a pod created through the API a name in the live context; this machine's own facts are read from /proc;
 * when to watch follows --watch-cluster.
 */
class LiveContextTest {
    private static Endpoint ip(String s) {
        long[] a = Ip.parse(s);
        return Endpoint.address(a[0], a[1]);
    }

    @Test
    void whenTheClusterIsWatched() {
        Map<String, String> pod = Map.of("KUBERNETES_SERVICE_HOST", "10.96.0.1");
        Path kc = Path.of("kubeconfig");
        assertTrue(LiveContext.watches(LiveContext.Watch.auto, null, false, pod), "inside a pod");
        assertFalse(LiveContext.watches(LiveContext.Watch.auto, null, false, Map.of()), "a laptop without --kubeconfig");
        assertTrue(LiveContext.watches(LiveContext.Watch.auto, kc, false, Map.of()), "--kubeconfig given");
        assertFalse(LiveContext.watches(LiveContext.Watch.auto, kc, true, pod), "a --cluster snapshot wins over auto");
        assertTrue(LiveContext.watches(LiveContext.Watch.on, null, true, Map.of()));
        assertFalse(LiveContext.watches(LiveContext.Watch.off, kc, false, pod));
    }

    @Test
    void aKubeconfigMakesTheApiServersObjectsNames(@TempDir Path dir) throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        Path kubeconfig = dir.resolve("kubeconfig");
        Files.writeString(kubeconfig, String.join("\n",
                "apiVersion: v1", "kind: Config", "current-context: mock",
                "clusters:", "- name: mock", "  cluster:", "    server: http://" + server.getHostName() + ":" + server.getPort(),
                "contexts:", "- name: mock", "  context:", "    cluster: mock", "    user: u", "    namespace: default",
                "users:", "- name: u", "  user:", "    token: t", ""), StandardCharsets.UTF_8);
        List<String> said = new CopyOnWriteArrayList<>();
        try (KubernetesClient client = server.createClient();
                LiveContext live = LiveContext.start(false, null, LiveContext.Watch.auto, kubeconfig, false, Map.of(), said::add)) {
            assertEquals(1, live.contexts().size(), "only the cluster: node facts were not asked for");
            client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("web-0").withNamespace("shop")
                    .endMetadata().withNewSpec().withNodeName("node-b").endSpec().withNewStatus().withPodIP("10.244.1.7")
                    .addNewPodIP().withIp("10.244.1.7").endPodIP().endStatus().build()).create();
            io.pcapdiag.context.Context known = io.pcapdiag.context.Context.of(live.contexts());
            long deadline = System.nanoTime() + 20_000_000_000L;
            Optional<Ref> ref = Optional.empty();
            while (ref.isEmpty() || !said.stream().anyMatch(s -> s.startsWith("cluster: watching"))) {
                if (System.nanoTime() > deadline) {
                    fail("waited 20 s for the pod to be named; said " + said);
                }
                Thread.sleep(50);
                ref = known.ref(ip("10.244.1.7"));
            }
            assertTrue(ref.get().toString().contains("web-0"), ref.get().toString());
            assertEquals(List.of("cluster: watching the API server at http://" + server.getHostName() + ":" + server.getPort()
                    + "/: findings name Services and Pods"), said);
        } finally {
            server.destroy();
        }
    }

    @Test
    void aFileThatIsNotAKubeconfigIsAUsageErrorNamingIt(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("kubeconfig");
        Files.writeString(bad, "{ not: [ yaml", StandardCharsets.UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LiveContext.start(false, null, LiveContext.Watch.on, bad, false, Map.of(), s -> { }));
        assertTrue(e.getMessage().startsWith("--kubeconfig " + bad + ": not a kubeconfig"), e.getMessage());
    }

    @Test
    void thisNodesFactsAreRead() {
        List<String> said = new CopyOnWriteArrayList<>();
        try (LiveContext live = LiveContext.start(true, "lab-node", LiveContext.Watch.off, null, false, Map.of(), said::add)) {
            io.pcapdiag.context.Context known = io.pcapdiag.context.Context.of(live.contexts());
            assertEquals(1, live.contexts().size());
            assertTrue(known.localAddress(ip("127.0.0.1")).isPresent(), "the loopback address is local on every Linux");
            assertTrue(said.stream().anyMatch(s -> s.startsWith("node facts: read from this node (lab-node)")), said.toString());
        }
    }
}
