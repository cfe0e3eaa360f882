package io.pcapdiag.cluster;

import static io.pcapdiag.cluster.WatchTesting.await;
import static io.pcapdiag.cluster.WatchTesting.ip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.HashMap;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Live mode's DNS facts against the fabric8 Kubernetes mock server in CRUD mode: a pod's dnsPolicy and dnsConfig and the
 * cluster DNS Service come from the informers as from a snapshot, and a change to them shows up in the index.
 */
class ClusterWatchDnsTest {
    private static Pod resolver(String ndots) {
        return new PodBuilder().withNewMetadata().withName("resolver").withNamespace("shop").endMetadata().withNewSpec()
                .withNodeName("node-a").withDnsPolicy("None").withNewDnsConfig().withNameservers("192.0.2.53")
                .withSearches("shop.svc.cluster.local", "corp.example").addNewOption().withName("ndots").withValue(ndots)
                .endOption().addNewOption().withName("edns0").endOption().endDnsConfig().endSpec().withNewStatus()
                .withPodIP("10.244.1.6").addNewPodIP().withIp("10.244.1.6").endPodIP().endStatus().build();
    }

    @Test
    void dnsFactsFromTheInformers() throws Exception {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        try (KubernetesClient client = server.createClient();
             ClusterWatch w = ClusterWatch.start(server.createClient(), new ClusterWatch.Listener() {
                 @Override
                 public void available() {
                 }

                 @Override
                 public void unavailable(String why) {
                 }
             }, 3000)) {
            client.pods().inNamespace("shop").resource(new PodBuilder().withNewMetadata().withName("cart-0").withNamespace("shop")
                    .endMetadata().withNewSpec().withNodeName("node-a").endSpec().withNewStatus().withPodIP("10.244.1.5")
                    .addNewPodIP().withIp("10.244.1.5").endPodIP().endStatus().build()).create();
            client.pods().inNamespace("shop").resource(resolver("2")).create();
            client.pods().inNamespace("kube-system").resource(new PodBuilder().withNewMetadata().withName("node-exporter-q7x2c")
                    .withNamespace("kube-system").endMetadata().withNewSpec().withNodeName("node-a").withHostNetwork(true)
                    .withDnsPolicy("ClusterFirstWithHostNet").endSpec().withNewStatus().withPodIP("192.0.2.11")
                    .addNewPodIP().withIp("192.0.2.11").endPodIP().endStatus().build()).create();
            client.services().inNamespace("kube-system").resource(new ServiceBuilder().withNewMetadata().withName("kube-dns")
                    .withNamespace("kube-system").addToLabels("k8s-app", "kube-dns").endMetadata().withNewSpec()
                    .withType("ClusterIP").withClusterIP("10.96.0.10").withClusterIPs("10.96.0.10")
                    .addNewPort().withName("dns").withPort(53).withProtocol("UDP").endPort()
                    .addNewPort().withName("dns-tcp").withPort(53).withProtocol("TCP").endPort()
                    .addNewPort().withName("metrics").withPort(9153).withProtocol("TCP").endPort()
                    .addToSelector("k8s-app", "kube-dns").endSpec().build()).create();

            await(() -> w.index().podDns(ip("10.244.1.6")).isPresent() && w.index().podDns(ip("10.244.1.5")).isPresent()
                    && !w.index().dnsPorts().isEmpty(), "the pods and the DNS Service in the index");
            assertEquals(new PodDns("shop", "cart-0", "ClusterFirst", OptionalInt.empty(), List.of(), List.of()),
                    w.index().podDns(ip("10.244.1.5")).get());
            assertEquals(new PodDns("shop", "resolver", "None", OptionalInt.of(2), List.of("shop.svc.cluster.local",
                    "corp.example"), List.of("192.0.2.53")), w.index().podDns(ip("10.244.1.6")).get());
            assertTrue(w.index().podDns(ip("192.0.2.11")).isEmpty(), "a hostNetwork pod");
            assertEquals(new TreeSet<>(List.of(53)), w.index().dnsPorts());
            assertTrue(w.index().isDnsService(ip("10.96.0.10"), 53));
            assertFalse(w.index().isDnsService(ip("10.96.0.10"), 9153));

            // A value the resolvers read differently is no ndots, live as in a snapshot.
            client.pods().inNamespace("shop").resource(resolver("five")).update();
            await(() -> w.index().podDns(ip("10.244.1.6")).get().ndots().isEmpty(), "the ndots change");

            client.services().inNamespace("kube-system").withName("kube-dns").delete();
            await(() -> w.index().dnsPorts().isEmpty(), "the DNS Service gone");
            assertFalse(w.index().isDnsService(ip("10.96.0.10"), 53));
        } finally {
            server.destroy();
        }
    }
}
