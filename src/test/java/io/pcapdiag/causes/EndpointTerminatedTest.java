package io.pcapdiag.causes;

import static io.pcapdiag.causes.ConnectionScript.CLIENT;
import static io.pcapdiag.causes.ConnectionScript.CLIENT_ISN;
import static io.pcapdiag.causes.ConnectionScript.CLIENT_PORT;
import static io.pcapdiag.causes.ConnectionScript.SERVER_ISN;
import static io.pcapdiag.causes.ConntrackInvalidAcceptedTest.BACKEND;
import static io.pcapdiag.causes.ConntrackInvalidAcceptedTest.VIP;
import static io.pcapdiag.testing.PacketScript.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.TcpBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@code endpoint-terminated} on the lab's reset-by-gone-endpoint cluster (captures/README.md: {@code cluster.json} lists
 * pod C 10.244.1.20 not ready, not serving, terminating, and its replacement 10.244.1.21 ready; {@code contradicted/}
 * lists pod C ready), and on that snapshot changed. The connection: pod A's heartbeat to 10.96.70.70:8080 goes
 * unanswered, sent again, until ICMP host unreachable from the Service address quotes it; node A's {@code -i any}
 * shows the DNAT'ed copies to pod C on flannel.1, pod A's eth0 does not, node B's sees pod C dialed directly.
 */
class EndpointTerminatedTest {
    private static final String DIR = "captures/reset-by-gone-endpoint/";

    /** How the capture shows the connection. */
    enum View { NODE_A, POD_A, NODE_B }

    /** The connection, its heartbeat resent 4 times and answered by ICMP host unreachable, as {@code view} shows it. */
    static Finding goneEndpoint(List<Context> context, View view, String backend) {
        String dialed = view == View.NODE_B ? backend : VIP;
        int port = view == View.NODE_B ? 80 : 8080;
        int clientIf = view == View.POD_A ? -1 : view == View.NODE_A ? 4 : 2;
        int ack = TcpBuilder.ACK;
        ConnectionScript c = new ConnectionScript(context);
        c.seg(0, clientIf, CLIENT, CLIENT_PORT, dialed, port, CLIENT_ISN, 0, TcpBuilder.SYN, 0);
        if (view == View.NODE_A) {
            c.seg(MS / 10, 5, CLIENT, CLIENT_PORT, backend, 80, CLIENT_ISN, 0, TcpBuilder.SYN, 0);
        }
        c.seg(MS, clientIf, dialed, port, CLIENT, CLIENT_PORT, SERVER_ISN, CLIENT_ISN + 1, TcpBuilder.SYN | ack, 0);
        c.seg(2 * MS, clientIf, CLIENT, CLIENT_PORT, dialed, port, CLIENT_ISN + 1, SERVER_ISN + 1, ack | TcpBuilder.PSH, 53);
        c.seg(3 * MS, clientIf, dialed, port, CLIENT, CLIENT_PORT, SERVER_ISN + 1, CLIENT_ISN + 54, ack | TcpBuilder.PSH, 200);
        byte[] heartbeat = null;
        for (long t : new long[] {2000, 2200, 2400, 2900, 3700}) {
            c.seg(t * MS, clientIf, CLIENT, CLIENT_PORT, dialed, port, CLIENT_ISN + 54, SERVER_ISN + 201, ack | TcpBuilder.PSH, 5);
            heartbeat = Ipv4Builder.ipv4(CLIENT, dialed).dontFragment(true).tcp(TcpBuilder.tcp(CLIENT_PORT, port)
                    .seq(CLIENT_ISN + 54).ack(SERVER_ISN + 201).flags(ack | TcpBuilder.PSH).window(502).payload(new byte[5]))
                    .build();
        }
        c.script.unreachable(4000 * MS, dialed, CLIENT, 1, heartbeat, 63);
        return c.only(Pattern.RESET_BY_GONE_ENDPOINT);
    }

    private static CauseVerdict judged(String snapshot, Consumer<ObjectNode> change, View view, String backend) {
        List<Context> context = new ArrayList<>();
        if (snapshot != null) {
            context.add(LabContext.cluster(DIR + snapshot, change));
        }
        Finding f = goneEndpoint(context, view, backend);
        return RpFilterTest.judged(f, Context.of(context), Cause.ENDPOINT_TERMINATED).orElseThrow();
    }

    private static List<String> texts(CauseVerdict v) {
        return v.facts().stream().map(Fact::text).toList();
    }

    @Test
    void confirmedByTheBackendListedTerminating() {
        CauseVerdict v = judged("cluster.json", d -> { }, View.NODE_A, BACKEND);
        assertEquals(Verdict.CONFIRMED, v.verdict(), texts(v).toString());
        assertEquals(List.of("DNAT sent the connection to 10.244.1.20:80 (#2)", "10.244.1.20 is a not-ready endpoint of svc"
                + " default/api:http, terminating and no longer serving (EndpointSlice default/api-v4)"), texts(v));
        assertTrue(v.fix().get(0).startsWith("kubectl -n default edit deployment <the owner of pod api-7c9f8d6b5-t5n8k>"),
                v.fix().get(0));
    }

    @Test
    void confirmedByTheBackendInNoEndpointSlice() {
        CauseVerdict v = judged("cluster.json", d -> { }, View.NODE_A, "10.244.1.99");
        assertEquals(Verdict.CONFIRMED, v.verdict(), texts(v).toString());
        assertEquals("10.244.1.99 is in no EndpointSlice of svc default/api:http (no pod the cluster lists)", texts(v).get(1));
    }

    @Test
    void contradictedByAReadyServingEndpoint() {
        CauseVerdict v = judged("contradicted/cluster.json", d -> { }, View.NODE_A, BACKEND);
        assertEquals(Verdict.CONTRADICTED, v.verdict(), texts(v).toString());
        assertEquals("10.244.1.20 is a ready endpoint of svc default/api:http (EndpointSlice default/api-v4)", texts(v).get(1));
    }

    @Test
    void consistentWhenListedNotReadyButNotTerminating() {
        CauseVerdict v = judged("cluster.json", d -> conditions(d, BACKEND, false, false, false), View.NODE_A, BACKEND);
        assertEquals(Verdict.CONSISTENT, v.verdict(), texts(v).toString());
        assertEquals("10.244.1.20 is a not-ready endpoint of svc default/api:http (EndpointSlice default/api-v4)", texts(v).get(1));
    }

    @Test
    void unknownWithoutTheCluster() {
        assertEquals(Verdict.UNKNOWN, judged(null, d -> { }, View.NODE_A, BACKEND).verdict());
    }

    @Test
    void withoutTheBackendInTheCaptureATerminatingEndpointIsConsistent() {
        CauseVerdict v = judged("cluster.json", d -> { }, View.POD_A, BACKEND);
        assertEquals(Verdict.CONSISTENT, v.verdict(), texts(v).toString());
        assertEquals(List.of("the capture does not show which endpoint of svc default/api:http the connection was DNAT'ed to",
                "10.244.1.20 is a not-ready endpoint of svc default/api:http, terminating and no longer serving (EndpointSlice"
                        + " default/api-v4)"), texts(v));
        // Every endpoint ready: the one that went may be in no EndpointSlice any more; nothing tells.
        assertEquals(Verdict.UNKNOWN, judged("contradicted/cluster.json", d -> { }, View.POD_A, BACKEND).verdict());
    }

    @Test
    void onTheBackendsNodeTheDialedPodIsTheBackend() {
        CauseVerdict v = judged("cluster.json", d -> { }, View.NODE_B, BACKEND);
        assertEquals(Verdict.CONFIRMED, v.verdict(), texts(v).toString());
        assertEquals("10.244.1.20 is a not-ready endpoint of svc default/api:http, terminating and no longer serving"
                + " (EndpointSlice default/api-v4)", texts(v).get(1));
        assertEquals(Verdict.CONTRADICTED, judged("contradicted/cluster.json", d -> { }, View.NODE_B, BACKEND).verdict());
        // A terminating endpoint that still serves (its readiness probe passes while it drains) is terminating all the same.
        CauseVerdict serving = judged("cluster.json", d -> conditions(d, BACKEND, false, true, true), View.NODE_B, BACKEND);
        assertEquals(Verdict.CONFIRMED, serving.verdict());
        assertTrue(texts(serving).get(1).contains(", terminating and still serving"), texts(serving).get(1));
    }

    /** Sets the EndpointSlice conditions of {@code address}. */
    private static void conditions(ObjectNode snapshot, String address, boolean ready, boolean serving, boolean terminating) {
        for (JsonNode item : snapshot.get("items")) {
            if (!"EndpointSlice".equals(item.get("kind").asText())) {
                continue;
            }
            for (JsonNode e : item.get("endpoints")) {
                if (e.get("addresses").get(0).asText().equals(address)) {
                    ((ObjectNode) e).putObject("conditions").put("ready", ready).put("serving", serving)
                            .put("terminating", terminating);
                }
            }
        }
    }
}
