package io.pcapdiag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster's DNS facts from a snapshot: each pod's dnsPolicy (ClusterFirst when the spec has none) and dnsConfig,
 * values that cannot be used said with their path and left out, hostNetwork pods not looked up by address; the
 * cluster DNS Service (kube-system, label k8s-app=kube-dns, else the one named kube-dns) with its DNS ports.
 */
class ClusterDnsTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final Path FIXTURE = PROJECT.resolve("src/test/resources/io/pcapdiag/cluster/dns-objects.json");

    static Endpoint ip(String s) {
        long[] a = Ip.parse(s);
        return Endpoint.address(a[0], a[1]);
    }

    @Test
    void podsDnsSettingsFromAKubectlList() throws Exception {
        assertPods(Snapshot.load(FIXTURE), FIXTURE);
    }

    /** The same objects as YAML ({@code kubectl get -o yaml}) read alike. */
    @Test
    void podsDnsSettingsFromYaml(@TempDir Path dir) throws Exception {
        Path yaml = dir.resolve("cluster.yaml");
        Files.writeString(yaml, new YAMLMapper().writeValueAsString(new ObjectMapper().readTree(FIXTURE.toFile())));
        assertPods(Snapshot.load(yaml), yaml);
    }

    private static void assertPods(Snapshot.Loaded l, Path file) {
        ClusterIndex idx = l.index();
        assertEquals(5, l.loaded().get("Pod"), l.loaded().toString());

        PodDns cart = idx.podDns(ip("10.244.1.5")).orElseThrow();
        assertEquals(new PodDns("shop", "cart-7d9f5c6b8-x2k4p", "ClusterFirst", OptionalInt.empty(), List.of(), List.of()), cart,
                "no dnsPolicy in the spec is ClusterFirst, as the API server defaults it");

        PodDns resolver = idx.podDns(ip("10.244.1.6")).orElseThrow();
        assertEquals(new PodDns("shop", "resolver", "None", OptionalInt.of(2), List.of("shop.svc.cluster.local", "corp.example"),
                List.of("192.0.2.53")), resolver);

        // A value that cannot be used is said with its path and left out; the pod and the rest of it are kept.
        PodDns legacy = idx.podDns(ip("10.244.1.7")).orElseThrow();
        assertEquals(new PodDns("shop", "legacy", "ClusterFirst", OptionalInt.of(1), List.of(), List.of("192.0.2.54")), legacy);
        PodDns odd = idx.podDns(ip("10.244.1.8")).orElseThrow();
        assertNull(odd.dnsPolicy(), "a policy the API server refuses is no policy");
        assertEquals(OptionalInt.empty(), odd.ndots(), "the last ndots given is the kubelet's, and it is no number");

        // hostNetwork: the address is the node's, no pod's.
        assertTrue(idx.podDns(ip("192.0.2.11")).isEmpty());
        assertTrue(idx.nodeAt(ip("192.0.2.11")).isPresent());

        assertEquals(List.of(
                file + ": $.items[3].spec.dnsConfig.nameservers[0]: '999.1.1.1' is not an IP address",
                file + ": $.items[3].spec.dnsConfig.options[0].value: 'five' is not a number of dots",
                file + ": $.items[3].spec.dnsConfig.options[1].value: ndots has no value (the resolvers ignore it)",
                file + ": $.items[4].spec.dnsPolicy: 'ClusterFirstt' is not a DNS policy (ClusterFirst, ClusterFirstWithHostNet,"
                        + " Default, None)",
                file + ": $.items[4].spec.dnsConfig.options[1].value: '-1' is not a number of dots"), l.problems());
    }

    /**
     * A dnsConfig of the wrong form (options written as resolv.conf's line) cannot be converted: the pod is skipped in
     * one line naming the path, what the model expects and what the file has, as any object that cannot be; the rest
     * loads.
     */
    @Test
    void aDnsConfigOfTheWrongFormSkipsItsPodOnly(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cluster.json");
        Files.writeString(f, """
                {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [
                 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "shop"},
                  "spec": {"containers": [{"name": "a", "image": "busybox"}], "dnsConfig": {"options": "ndots:2"}},
                  "status": {"podIP": "10.244.1.9"}},
                 {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b", "namespace": "shop"},
                  "spec": {"containers": [{"name": "b", "image": "busybox"}], "dnsPolicy": "Default"},
                  "status": {"podIP": "10.244.1.10"}}]}
                """);
        Snapshot.Loaded l = Snapshot.load(f);
        assertEquals(List.of(f + ": $.items[0]: Pod cannot be read: spec.dnsConfig.options: expected an array, found a string"),
                l.problems());
        assertTrue(l.index().podDns(ip("10.244.1.9")).isEmpty());
        assertEquals("Default", l.index().podDns(ip("10.244.1.10")).orElseThrow().dnsPolicy());
    }

    @Test
    void theClusterDnsServiceIsKubeSystemsLabelledOne() throws Exception {
        ClusterIndex idx = Snapshot.load(FIXTURE).index();
        // kube-dns's 53 (UDP and TCP) and NodeLocal DNSCache's kube-dns-upstream's 5353; not 9153/TCP (metrics), not
        // default/kube-dns's 10053 (not kube-system's).
        assertEquals(new TreeSet<>(List.of(53, 5353)), idx.dnsPorts());
        assertTrue(idx.isDnsService(ip("10.96.0.10"), 53));
        assertTrue(idx.isDnsService(ip("10.96.0.11"), 5353));
        assertFalse(idx.isDnsService(ip("10.96.0.10"), 9153), "the metrics port");
        assertFalse(idx.isDnsService(ip("10.96.0.10"), 5353), "another DNS Service's port");
        assertFalse(idx.isDnsService(ip("10.96.5.5"), 10053), "a Service named kube-dns outside kube-system");
        assertFalse(idx.isDnsService(ip("10.244.1.5"), 53), "a pod");
        assertEquals("kube-dns", idx.dnsService(ip("10.96.0.10"), 53).orElseThrow().getMetadata().getName());
        // A DNS query over UDP names the UDP port, over TCP the TCP one.
        assertEquals("dns", idx.service(ip("10.96.0.10"), 53, "UDP").orElseThrow().portName());
        assertEquals("dns-tcp", idx.service(ip("10.96.0.10"), 53, "TCP").orElseThrow().portName());
        assertEquals("dns-tcp", idx.service(ip("10.96.0.10"), 53).orElseThrow().portName());
        assertTrue(ClusterIndex.empty().dnsPorts().isEmpty(), "no cluster, no DNS ports");
    }

    /** Without a labelled Service, kube-system's Service named kube-dns is the DNS Service. */
    @Test
    void withoutTheLabelTheOneNamedKubeDns(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cluster.json");
        Files.writeString(f, """
                {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [
                 {"apiVersion": "v1", "kind": "Service",
                  "metadata": {"name": "kube-dns", "namespace": "kube-system", "labels": {"app": "dns"}},
                  "spec": {"clusterIP": "10.43.0.10", "clusterIPs": ["10.43.0.10"], "type": "ClusterIP",
                   "ports": [{"name": "dns", "port": 5353, "protocol": "UDP", "targetPort": 5353},
                             {"name": "dns-tcp", "port": 5353, "protocol": "TCP", "targetPort": 5353}]}},
                 {"apiVersion": "v1", "kind": "Service",
                  "metadata": {"name": "metrics-server", "namespace": "kube-system", "labels": {"k8s-app": "metrics-server"}},
                  "spec": {"clusterIP": "10.43.0.20", "clusterIPs": ["10.43.0.20"], "type": "ClusterIP",
                   "ports": [{"name": "https", "port": 443, "protocol": "TCP", "targetPort": 10250}]}}]}
                """);
        ClusterIndex idx = Snapshot.load(f).index();
        assertEquals(new TreeSet<>(List.of(5353)), idx.dnsPorts());
        assertTrue(idx.isDnsService(ip("10.43.0.10"), 5353));
        assertFalse(idx.isDnsService(ip("10.43.0.20"), 443));
    }

    /** The lab's snapshots: the client pod is ClusterFirst without dnsConfig, the DNS pods Default; kube-dns on 53. */
    @Test
    void theLabSnapshotsParse() throws Exception {
        List<Path> snapshots;
        try (Stream<Path> s = Files.list(PROJECT.resolve("captures"))) {
            snapshots = s.filter(d -> d.getFileName().toString().startsWith("dns-")).map(d -> d.resolve("cluster.json"))
                    .filter(Files::isRegularFile).sorted().toList();
        }
        assertTrue(snapshots.size() >= 7, snapshots.toString());
        for (Path f : snapshots) {
            Snapshot.Loaded l = Snapshot.load(f);
            assertEquals(List.of(), l.problems(), f.toString());
            PodDns client = l.index().podDns(ip("10.244.0.18")).orElseThrow(() -> new AssertionError(f + ": no client pod"));
            assertTrue(client.name().startsWith("client-"), f + ": " + client);
            assertEquals("ClusterFirst", client.dnsPolicy(), f.toString());
            assertEquals(OptionalInt.empty(), client.ndots(), f.toString());
            assertEquals(new TreeSet<>(List.of(53)), l.index().dnsPorts(), f.toString());
            assertTrue(l.index().isDnsService(ip("10.96.0.10"), 53), f.toString());
            for (String dnsPod : List.of("10.244.0.10", "10.244.0.11")) {
                l.index().podDns(ip(dnsPod)).ifPresent(p -> assertEquals("Default", p.dnsPolicy(), f + ": " + p));
            }
        }
    }
}
