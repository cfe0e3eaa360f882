package io.pcapdiag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EndpointSlice conditions as discovery.k8s.io/v1 defines their unset values (ready: ready; serving: as ready;
 * terminating: not), and the Service ports that list an address:port, by protocol.
 */
class EndpointConditionsTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    private static Endpoint ip(String s) {
        long[] a = Ip.parse(s);
        return Endpoint.address(a[0], a[1]);
    }

    private static String slice(String name, String service, String ports, String endpoints) {
        return "{\"apiVersion\":\"discovery.k8s.io/v1\",\"kind\":\"EndpointSlice\",\"metadata\":{\"name\":\"" + name + "\","
                + "\"namespace\":\"shop\",\"labels\":{\"kubernetes.io/service-name\":\"" + service + "\"}},\"addressType\":\"IPv4\","
                + "\"ports\":[" + ports + "],\"endpoints\":[" + endpoints + "]}";
    }

    private static String endpoint(String address, String conditions) {
        return "{\"addresses\":[\"" + address + "\"]" + (conditions == null ? "" : ",\"conditions\":" + conditions) + "}";
    }

    @Test
    void unsetConditionsReadAsTheApiDefinesThem(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cluster.json");
        Files.writeString(f, "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
                + slice("web-1", "web", "{\"name\":\"http\",\"port\":80,\"protocol\":\"TCP\"}", String.join(",",
                        endpoint("10.244.1.1", null),
                        endpoint("10.244.1.2", "{\"ready\":false}"),
                        endpoint("10.244.1.3", "{\"ready\":false,\"serving\":true,\"terminating\":true}"),
                        endpoint("10.244.1.4", "{\"ready\":true,\"terminating\":null}")))
                + "," + slice("dns-1", "dns", "{\"name\":\"dns\",\"port\":80,\"protocol\":\"UDP\"}", endpoint("10.244.1.1", null))
                + "]}");
        ClusterIndex idx = Snapshot.load(f).index();
        List<ClusterIndex.Listing> l = idx.listings(ip("10.244.1.1"), 80, "TCP");
        assertEquals(List.of(new ClusterIndex.Listing("shop", "web", "http", new ClusterIndex.Backend(ip("10.244.1.1"), 80,
                true, true, false, null, "web-1"))), l, "no conditions: ready, serving, not terminating; the UDP port is not TCP's");
        assertEquals(List.of("dns"), idx.listings(ip("10.244.1.1"), 80, "UDP").stream().map(ClusterIndex.Listing::service).toList());
        assertEquals(new ClusterIndex.Backend(ip("10.244.1.2"), 80, false, false, false, null, "web-1"),
                idx.listings(ip("10.244.1.2"), 80, "TCP").get(0).backend(), "serving unset follows ready");
        assertEquals(new ClusterIndex.Backend(ip("10.244.1.3"), 80, false, true, true, null, "web-1"),
                idx.listings(ip("10.244.1.3"), 80, "TCP").get(0).backend());
        assertEquals(new ClusterIndex.Backend(ip("10.244.1.4"), 80, true, true, false, null, "web-1"),
                idx.listings(ip("10.244.1.4"), 80, "TCP").get(0).backend());
        assertEquals(List.of(), idx.listings(ip("10.244.1.4"), 8080, "TCP"), "another port");
    }

    @Test
    void theLabsTerminatingBackend() throws Exception {
        ClusterIndex idx = Snapshot.load(PROJECT.resolve("captures/reset-by-gone-endpoint/cluster.json")).index();
        ClusterIndex.Backend c = idx.listings(ip("10.244.1.20"), 80, "TCP").get(0).backend();
        assertEquals(List.of(false, false, true), List.of(c.ready(), c.serving(), c.terminating()));
        ClusterIndex.Backend replacement = idx.listings(ip("10.244.1.21"), 80, "TCP").get(0).backend();
        assertEquals(List.of(true, true, false), List.of(replacement.ready(), replacement.serving(), replacement.terminating()));
    }
}
