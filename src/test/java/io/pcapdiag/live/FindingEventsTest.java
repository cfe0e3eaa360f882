package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.cluster.Snapshot;
import io.pcapdiag.context.ClusterContext;
import io.pcapdiag.context.NodeContext;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.node.NodeFacts;
import io.pcapdiag.rules.Pattern;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * live --events against the fabric8 mock API server (CRUD mode): a lab finding becomes one Event on the Service it
 * involves, with its pattern, its confirmed cause and the node; repeats and floods are held back and counted; a
 * finding without a named target gets none; an API server that is gone is said once and counted.
 */
class FindingEventsTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private KubernetesMockServer server;
    private KubernetesClient client;
    private final long[] clock = {0};
    private final List<String> said = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
        client = server.createClient();
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    /** The lab's vip-local-reject, analysed with its own cluster snapshot and node facts: one diagnosis. */
    private static Diagnosis vipLocalReject(boolean withContext) throws Exception {
        Path dir = PROJECT.resolve("captures/vip-local-reject");
        List<io.pcapdiag.context.Context> context = List.of();
        if (withContext) {
            Snapshot.Loaded l = Snapshot.load(dir.resolve("cluster.json"));
            context = List.of(new ClusterContext(l::index, "the cluster snapshot"),
                    new NodeContext(NodeFacts.read(dir.resolve("node-facts.json"))));
        }
        Analysis a = new Analysis(new Analysis.Options(Analysis.Options.DEFAULT_MAX_OPEN, Analysis.Options.DEFAULT_MAX_FINDINGS, context));
        a.read(List.of(new Capture(0, dir.resolve("pod-eth0.pcap").toString())), Reader.BUILTIN::open, line -> { });
        List<Diagnosis> ds = Report.of(a.finish(), Integer.MAX_VALUE, null).diagnoses();
        assertEquals(1, ds.size());
        return ds.get(0);
    }

    private List<Event> events() {
        return client.events().v1().events().inNamespace("default").list().getItems();
    }

    @Test
    void aNamedFindingIsOneEventOnItsService() throws Exception {
        FindingEvents events = new FindingEvents(client, "pdlab-node", said::add, () -> clock[0]);
        Diagnosis d = vipLocalReject(true);
        events.finding(d, null, 0);
        clock[0] += TimeUnit.MINUTES.toNanos(1);
        events.finding(d, null, 0); // the same finding a minute later: not again
        clock[0] += TimeUnit.MINUTES.toNanos(10);
        events.finding(d, null, 0); // ten minutes on: again
        events.flush();
        List<Event> posted = events();
        assertEquals(2, posted.size(), said.toString());
        Event e = posted.get(0);
        assertEquals("Service", e.getRegarding().getKind());
        assertEquals("default", e.getRegarding().getNamespace());
        assertEquals("ingress", e.getRegarding().getName());
        assertEquals("Warning", e.getType());
        assertEquals("VipLocalReject", e.getReason());
        assertEquals(FindingEvents.CONTROLLER, e.getReportingController());
        assertEquals("pcapdiag.io-live-pdlab-node", e.getReportingInstance());
        assertTrue(e.getNote().startsWith("vip-local-reject: the node rejected a connection to a VIP it holds itself: 10.244.0.18"
                + " (pod default/client-6d8f7b9c4-k2m9x, pdlab-node) -> 203.0.113.10:443, answered by 203.0.113.10, 2 attempts"),
                e.getNote());
        assertTrue(e.getNote().contains("cause (confirmed): etp-local-no-local-endpoint"), e.getNote());
        assertTrue(e.getMetadata().getName().startsWith("ingress.vip-local-reject."), e.getMetadata().getName());
        assertEquals("events: 2 posted, 1 repeats within 10 min and 0 over 30 a minute not posted, 0 findings without a named"
                + " Service or Pod, 0 failed", events.summary());
    }

    @Test
    void aFloodIsCappedAndSaidOnce() throws Exception {
        FindingEvents events = new FindingEvents(client, "pdlab-node", said::add, () -> clock[0]);
        Diagnosis d = vipLocalReject(true);
        // Reclassified findings are posted again at once: 40 of them within a minute.
        for (int i = 0; i < 40; i++) {
            events.finding(d, Pattern.NO_RESPONSE, 0);
        }
        events.flush();
        assertEquals(FindingEvents.PER_MINUTE, events().size());
        assertEquals(1, said.stream().filter(l -> l.startsWith("events: more than 30 findings a minute")).count(), said.toString());
        assertTrue(events.summary().contains("10 over 30 a minute not posted"), events.summary());
    }

    @Test
    void aFindingWithoutNamesGetsNoEvent() throws Exception {
        FindingEvents events = new FindingEvents(client, "pdlab-node", said::add, () -> clock[0]);
        events.finding(vipLocalReject(false), null, 0);
        events.flush();
        assertEquals(0, events().size());
        assertTrue(events.summary().contains("1 findings without a named Service or Pod"), events.summary());
    }

    @Test
    void anApiServerThatIsGoneIsSaidOnceAndCounted() throws Exception {
        String url = "http://" + server.getHostName() + ":" + server.getPort();
        server.destroy();
        try (KubernetesClient gone = new KubernetesClientBuilder().withConfig(new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl(url).withRequestRetryBackoffLimit(0).withConnectionTimeout(500).build()).build()) {
            FindingEvents events = new FindingEvents(gone, "pdlab-node", said::add, () -> clock[0]);
            Diagnosis d = vipLocalReject(true);
            events.finding(d, null, 0);
            clock[0] += TimeUnit.MINUTES.toNanos(11);
            events.finding(d, null, 0);
            events.flush();
            assertEquals(1, said.stream().filter(l -> l.startsWith("events: cannot post an Event")).count(), said.toString());
            assertTrue(events.summary().endsWith("2 failed"), events.summary());
        }
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        server.init();
    }
}
