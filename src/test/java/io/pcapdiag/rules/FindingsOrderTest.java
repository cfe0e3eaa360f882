package io.pcapdiag.rules;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.synPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.PacketScript;
import io.pcapdiag.track.Endpoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The report's order of findings ({@link Findings#ORDER}, written by hand on ordinals for speed), held to the same
 * order written with the findings' own accessors and the JDK's comparators.
 */
class FindingsOrderTest {
    private static final Comparator<Finding> REPORT_ORDER = Comparator
            .comparing(Finding::severity, Comparator.reverseOrder())
            .thenComparing(Finding::attempts, Comparator.reverseOrder())
            .thenComparing(Finding::pattern)
            .thenComparing(Finding::client)
            .thenComparing(Finding::target)
            .thenComparing(Finding::responder, Comparator.nullsFirst(Comparator.<Endpoint>naturalOrder()));

    /**
     * The findings of a script of {@code attempts} SYNs, each refused, unanswered, rejected by a router, or rejected
     * as port unreachable by the dialed address itself (vip-local-reject: an error, the others warnings); clients and
     * targets repeat, so findings have several attempt counts.
     */
    static List<Finding> scripted(int attempts, long seed) {
        // Addresses that tie on their upper or lower half, v4 and v6 alike, so every field decides some comparisons.
        String[] clients = {"10.244.0.2", "10.244.0.10", "10.244.1.2", "192.168.5.1", "fd00::2", "fd00::1:2", "fd01::2"};
        String[] targets4 = {"10.96.0.10", "10.96.0.9", "10.244.0.10"};
        String[] targets6 = {"fd00:96::10", "fd00:96::1:10"};
        int[] ports = {80, 443, 8080};
        Random rnd = new Random(seed);
        PacketScript s = new PacketScript();
        long t = 0;
        for (int i = 0; i < attempts; i++) {
            String client = clients[rnd.nextInt(clients.length)];
            boolean v6 = client.indexOf(':') >= 0;
            String target = v6 ? targets6[rnd.nextInt(targets6.length)] : targets4[rnd.nextInt(targets4.length)];
            int port = ports[rnd.nextInt(ports.length)];
            int sport = 30000 + i;
            int isn = 1000 * i;
            t += MS;
            s.syn(t, client, sport, target, port, isn);
            switch (rnd.nextInt(4)) {
                case 0 -> s.rst(t + MS / 2, target, port, client, sport, 0, isn + 1, true); // refused
                case 1 -> { } // no answer
                case 2 -> s.unreachable(t + MS / 2, target, client, 3, synPacket(client, sport, target, port, isn), 64);
                default -> { // unreachable, from one of two routers of the client's family
                    String router = v6 ? (rnd.nextBoolean() ? "fd00::fe" : "fd00::1:fe")
                            : (rnd.nextBoolean() ? "10.244.0.1" : "10.244.1.1");
                    s.unreachable(t + MS / 2, router, client, 1, synPacket(client, sport, target, port, isn), 64);
                }
            }
        }
        return s.finish().findings();
    }

    @Test
    void findingsAreInReportOrder() {
        List<Finding> got = scripted(1200, 42);
        assertTrue(got.size() > 150, got.size() + " findings");
        assertTrue(got.stream().map(Finding::pattern).distinct().count() >= 3, "several patterns");
        assertTrue(got.stream().mapToLong(Finding::attempts).distinct().count() >= 3, "several attempt counts");
        assertEquals(2, got.stream().map(Finding::severity).distinct().count(), "both severities");
        List<Finding> expected = new ArrayList<>(got);
        expected.sort(REPORT_ORDER);
        for (int i = 0; i < got.size(); i++) {
            assertEquals(describe(expected.get(i)), describe(got.get(i)), "finding " + i);
        }
    }

    private static String describe(Finding f) {
        return f.severity() + " " + f.attempts() + " " + f.pattern() + " " + f.client() + " " + f.target() + " " + f.responder();
    }
}
