package io.pcapdiag.cluster;

import static io.pcapdiag.cluster.WatchTesting.await;
import static io.pcapdiag.cluster.WatchTesting.ip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Live mode's cluster view against the fabric8 Kubernetes mock server in CRUD mode: objects created through
 * the API appear in the index, a change shows up, and the server going away is said once while the last
 * index stays readable without blocking.
 */
@Tag("slow")
class ClusterWatchTest {
    private static EndpointSlice slice(boolean ready) {
        return new EndpointSliceBuilder().withNewMetadata().withName("web-abc").withNamespace("shop")
                .addToLabels("kubernetes.io/service-name", "web").endMetadata().withAddressType("IPv4")
                .addNewEndpoint().withAddresses("10.244.1.7").withNodeName("node-b").withNewConditions().withReady(ready)
                .endConditions().withNewTargetRef().withKind("Pod").withNamespace("shop").withName("web-0").endTargetRef()
                .endEndpoint().addNewPort().withName("http").withPort(8080).endPort().build();
    }

    @Test
    void objectsChangesAndTheServerGoingAway() throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        KubernetesClient client = server.createClient();
        List<String> said = new CopyOnWriteArrayList<>();
        try (ClusterWatch w = ClusterWatch.start(server.createClient(), new ClusterWatch.Listener() {
            @Override
            public void available() {
                said.add("available");
            }

            @Override
            public void unavailable(String why) {
                said.add("unavailable: " + why);
            }
        }, 3000)) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-b").endMetadata().withNewSpec()
                    .withPodCIDRs("10.244.1.0/24").endSpec().withNewStatus().addNewAddress().withType("InternalIP")
                    .withAddress("192.0.2.12").endAddress().endStatus().build()).create();
            client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("web-0").withNamespace("shop")
                    .addToLabels("app", "web").endMetadata().withNewSpec().withNodeName("node-b").endSpec().withNewStatus()
                    .withPodIP("10.244.1.7").addNewPodIP().withIp("10.244.1.7").endPodIP().endStatus().build()).create();
            client.services().inNamespace("shop").resource(new ServiceBuilder().withNewMetadata().withName("web")
                    .withNamespace("shop").endMetadata().withNewSpec().withType("ClusterIP").withClusterIP("10.96.0.80")
                    .withClusterIPs("10.96.0.80").addNewPort().withName("http").withPort(80).withProtocol("TCP").endPort()
                    .addToSelector("app", "web").endSpec().build()).create();
            client.discovery().v1().endpointSlices().inNamespace("shop").resource(slice(true)).create();

            await(() -> w.index().service(ip("10.96.0.80"), 80).isPresent() && w.index().podAt(ip("10.244.1.7")).isPresent()
                    && !w.index().backends(w.index().service(ip("10.96.0.80"), 80).get()).isEmpty(), "the objects in the index");
            await(() -> said.contains("available"), "available");
            ServiceMatch m = w.index().service(ip("10.96.0.80"), 80).get();
            assertEquals("web", m.name());
            assertTrue(w.index().backends(m).get(0).ready());

            client.discovery().v1().endpointSlices().inNamespace("shop").resource(slice(false)).update();
            await(() -> !w.index().backends(w.index().service(ip("10.96.0.80"), 80).get()).get(0).ready(),
                    "the endpoint becoming not ready");

            server.destroy();
            await(() -> said.stream().anyMatch(s -> s.startsWith("unavailable")), "the server going away said");
            assertEquals(1, said.stream().filter(s -> s.startsWith("unavailable")).count(), said.toString());
            long t0 = System.nanoTime();
            assertTrue(w.index().service(ip("10.96.0.80"), 80).isPresent(), "the last index stays readable");
            assertTrue(System.nanoTime() - t0 < 1_000_000_000L, "reading the index does not wait for the server");
        } finally {
            client.close();
        }
    }

    /** The usual live start: the cluster exists before the watch; a tick before the informers synced must not lose it. */
    @Test
    void objectsThatExistBeforeTheWatchAreInTheIndex() throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        try (KubernetesClient client = server.createClient()) {
            client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("web-0").withNamespace("shop")
                    .endMetadata().withNewSpec().withNodeName("node-b").endSpec().withNewStatus().withPodIP("10.244.1.7")
                    .addNewPodIP().withIp("10.244.1.7").endPodIP().endStatus().build()).create();
            List<String> said = new CopyOnWriteArrayList<>();
            // firstVerdictMillis 1: the first tick runs at once, before any informer has listed.
            try (ClusterWatch w = ClusterWatch.start(server.createClient(), new ClusterWatch.Listener() {
                @Override
                public void available() {
                    said.add("available");
                }

                @Override
                public void unavailable(String why) {
                    said.add("unavailable");
                }
            }, 1)) {
                await(() -> said.contains("available"), "available");
                Thread.sleep(2 * ClusterWatch.REBUILD_MILLIS);
                assertTrue(w.index().podAt(ip("10.244.1.7")).isPresent(), "the pod that existed before the watch");
            }
        } finally {
            server.destroy();
        }
    }

    @Test
    void noServerAtAllIsSaidOnceAndTheIndexIsEmpty() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        KubernetesClient client = new KubernetesClientBuilder().withConfig(new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:" + port).withRequestTimeout(1000).withConnectionTimeout(500).build()).build();
        List<String> said = new CopyOnWriteArrayList<>();
        try (ClusterWatch w = ClusterWatch.start(client, new ClusterWatch.Listener() {
            @Override
            public void available() {
                said.add("available");
            }

            @Override
            public void unavailable(String why) {
                said.add("unavailable: " + why);
            }
        }, 1500)) {
            await(() -> !said.isEmpty(), "a verdict");
            Thread.sleep(2500);
            assertEquals(1, said.size(), said.toString());
            assertTrue(said.get(0).startsWith("unavailable: the API server at http://127.0.0.1:" + port), said.get(0));
            assertEquals(0, w.index().serviceCount());
            assertFalse(w.index().podAt(ip("10.244.1.7")).isPresent());
        }
    }
}
