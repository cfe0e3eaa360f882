package io.pcapdiag.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.cluster.ClusterIndex;
import io.pcapdiag.cluster.Snapshot;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A Service's endpoints with their conditions, as the context states them, on the lab's reset-by-gone-endpoint snapshot
 * (svc default/api 10.96.70.70:8080/TCP; pod C 10.244.1.20 terminating, its replacement 10.244.1.21 ready).
 */
class ClusterContextEndpointsTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    private static Endpoint ip(String s, int port) {
        long[] a = Ip.parse(s);
        return new Endpoint(a[0], a[1], port < 0 ? Endpoint.NO_PORT : port);
    }

    private static Context context() throws Exception {
        ClusterIndex idx = Snapshot.load(PROJECT.resolve("captures/reset-by-gone-endpoint/cluster.json")).index();
        return Context.of(List.of(new ClusterContext(() -> idx, "the cluster snapshot")));
    }

    private static final Endpoint API = ip("10.96.70.70", 8080);

    @Test
    void aBackendsConditionsOverTcp() throws Exception {
        Context c = context();
        EndpointStatus gone = c.endpointStatus(ip("10.244.1.20", 80), API, "TCP").orElseThrow();
        assertEquals(new EndpointStatus(true, false, false, true, new Fact(Source.CLUSTER, "10.244.1.20 is a not-ready endpoint"
                + " of svc default/api:http, terminating and no longer serving (EndpointSlice default/api-v4)")), gone);
        EndpointStatus live = c.endpointStatus(ip("10.244.1.21", 80), API, "TCP").orElseThrow();
        assertEquals(true, live.live());
        EndpointStatus unlisted = c.endpointStatus(ip("10.244.1.99", 80), API, "TCP").orElseThrow();
        assertEquals(new EndpointStatus(false, false, false, false, new Fact(Source.CLUSTER, "10.244.1.99 is in no EndpointSlice"
                + " of svc default/api:http (no pod the cluster lists)")), unlisted);
    }

    @Test
    void theUdpQuestionKeepsAskingUdpPorts() throws Exception {
        // api's port is TCP: the question stale-udp-conntrack asks (UDP) finds no Service there, as before.
        assertEquals(Optional.empty(), context().endpointStatus(ip("10.244.1.20", 80), API));
        assertEquals(Optional.empty(), context().endpointStatus(ip("10.244.1.20", 80), API, "UDP"));
    }

    @Test
    void everyEndpointOfTheServiceAndWhereAnAddressIsListed() throws Exception {
        Context c = context();
        assertEquals(List.of(false, true), c.endpoints(API, "TCP").stream().map(EndpointStatus::live).toList());
        assertEquals(List.of("10.244.1.20 is a not-ready endpoint of svc default/api:http, terminating and no longer serving"
                + " (EndpointSlice default/api-v4)"), c.listings(ip("10.244.1.20", 80), "TCP").stream()
                .map(s -> s.fact().text()).toList());
        assertEquals(List.of(), c.listings(ip("10.244.1.20", 81), "TCP"));
        assertEquals(List.of(), c.listings(ip("10.244.1.20", 80), "UDP"));
    }
}
