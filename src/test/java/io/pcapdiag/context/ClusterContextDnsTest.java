package io.pcapdiag.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.cluster.ClusterIndex;
import io.pcapdiag.cluster.Snapshot;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The cluster's DNS facts as the context states them: a pod's dnsPolicy and dnsConfig, the cluster DNS Service. */
class ClusterContextDnsTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    private static Endpoint ip(String s, int port) {
        long[] a = Ip.parse(s);
        return new Endpoint(a[0], a[1], port < 0 ? Endpoint.NO_PORT : port);
    }

    private static ClusterContext context(String snapshot) throws Exception {
        ClusterIndex idx = Snapshot.load(PROJECT.resolve(snapshot)).index();
        return new ClusterContext(() -> idx, "the cluster snapshot");
    }

    @Test
    void podsDnsSettingsAsFacts() throws Exception {
        ClusterContext c = context("src/test/resources/io/pcapdiag/cluster/dns-objects.json");
        PodDnsFacts cart = c.podDns(ip("10.244.1.5", -1)).orElseThrow();
        assertEquals(new Ref(Ref.POD, "shop", "cart-7d9f5c6b8-x2k4p", null, "node-a"), cart.pod());
        assertEquals("ClusterFirst", cart.dnsPolicy());
        assertTrue(cart.usesClusterDns());
        assertEquals(new Fact(Source.CLUSTER, "the cluster snapshot gives pod shop/cart-7d9f5c6b8-x2k4p dnsPolicy ClusterFirst"
                + " (the default: its spec sets none) and no dnsConfig"), cart.fact());

        PodDnsFacts resolver = c.podDns(ip("10.244.1.6", 40_000)).orElseThrow();
        assertEquals(OptionalInt.of(2), resolver.ndots());
        assertFalse(resolver.usesClusterDns(), "dnsPolicy None");
        assertEquals(List.of("192.0.2.53"), resolver.nameservers());
        assertEquals("the cluster snapshot gives pod shop/resolver dnsPolicy None, dnsConfig with ndots 2, searches"
                + " shop.svc.cluster.local corp.example, nameservers 192.0.2.53", resolver.fact().text());

        assertEquals("the cluster snapshot gives pod shop/odd a dnsPolicy the API server does not accept, dnsConfig with no"
                + " ndots", c.podDns(ip("10.244.1.8", -1)).orElseThrow().fact().text());
        assertTrue(c.podDns(ip("192.0.2.11", -1)).isEmpty(), "a hostNetwork pod's address is its node's");
    }

    @Test
    void theClusterDnsServiceAsAFact() throws Exception {
        ClusterContext c = context("captures/dns-healthy/cluster.json");
        assertEquals(new TreeSet<>(List.of(53)), c.dnsPorts());
        assertEquals("10.96.0.10:53 is the cluster DNS Service svc kube-system/kube-dns (label k8s-app=kube-dns)",
                c.dnsService(ip("10.96.0.10", 53)).orElseThrow().text());
        assertTrue(c.dnsService(ip("10.96.0.10", 9153)).isEmpty());
        assertEquals("the cluster snapshot gives pod default/client-6d8f7b9c4-k2m9x dnsPolicy ClusterFirst and no dnsConfig",
                c.podDns(ip("10.244.0.18", -1)).orElseThrow().fact().text());
        assertTrue(new ClusterContext(ClusterIndex::empty, "the cluster").dnsPorts().isEmpty());
    }
}
