package io.pcapdiag.track;

import static io.pcapdiag.track.TrackerHarness.MS;
import static io.pcapdiag.track.TrackerHarness.S;
import static io.pcapdiag.track.TrackerHarness.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The bounded table: evictions are counted, evicted attempts are decided once, never lost or repeated. */
class EvictionTest {
    private static String client(int i) {
        return "10.244." + (i / 250) + "." + (1 + i % 250);
    }

    @ParameterizedTest(name = "maxOpen {0}, {1} more")
    @CsvSource({"1, 1", "1, 5", "10, 3", "50, 17", "1000, 1000"})
    void exactlyKEvictionsOfTheOldest(int n, int k) {
        TrackerHarness h = new TrackerHarness(n);
        for (int i = 0; i < n + k; i++) {
            h.syn(T0 + i * 1000L, client(i), 40000, "10.96.0.1", 443, i);
        }
        assertEquals(k, h.tracker.evicted());
        assertEquals(n, h.tracker.open());
        assertEquals(n, h.tracker.peakOpen());
        assertEquals(k, h.decided.size(), "evicted attempts are decided at once");
        for (int i = 0; i < k; i++) {
            Attempt a = h.decided.get(i);
            assertEquals(i, a.isn(), "the oldest go first");
            assertEquals(Outcome.EVICTED, a.outcome());
            assertTrue(a.evicted);
        }
        h.finish();
        assertEquals(n + k, h.decided.size());
        assertEquals(n + k, h.tracker.attempts());
        assertEquals(0, h.tracker.open());
        for (Attempt a : h.decided.subList(k, n + k)) {
            assertEquals(Outcome.PENDING, a.outcome());
            assertFalse(a.evicted);
        }
        assertTrue(h.deliveries.values().stream().allMatch(c -> c == 1), "each attempt delivered exactly once");
        assertEquals(n + k, h.deliveries.size());
    }

    @Test
    void evictedAttemptsKeepAnAnswerTheyHad() {
        TrackerHarness h = new TrackerHarness(3);
        h.syn(T0, client(0), 1, "10.96.0.1", 443, 100);
        h.synAck(T0 + MS, "10.96.0.1", 443, client(0), 1, 0, 101);          // answered
        h.syn(T0 + 2 * MS, client(1), 1, "10.96.0.1", 443, 200);
        h.rst(T0 + 3 * MS, "10.96.0.1", 443, client(1), 1, 0, 201, true);   // refused
        h.syn(T0 + 4 * MS, client(2), 1, "10.96.0.1", 443, 300);
        h.syn(T0 + 400 * MS, client(2), 1, "10.96.0.1", 443, 300);          // retransmitted, unanswered
        h.syn(T0 + 5 * MS + 400 * MS, client(3), 1, "10.96.0.1", 443, 400);
        h.syn(T0 + 6 * MS + 400 * MS, client(4), 1, "10.96.0.1", 443, 500);
        h.syn(T0 + 7 * MS + 400 * MS, client(5), 1, "10.96.0.1", 443, 600);
        assertEquals(3, h.tracker.evicted());
        List<Outcome> outcomes = h.decided.stream().map(Attempt::outcome).toList();
        assertEquals(List.of(Outcome.ANSWERED, Outcome.REFUSED, Outcome.EVICTED), outcomes);
        // An answer to an evicted attempt finds nothing.
        h.synAck(T0 + 500 * MS, "10.96.0.1", 443, client(2), 1, 0, 301);
        assertEquals(1, h.tracker.unmatchedAnswers());
        h.finish();
        assertEquals(6, h.decided.size());
        assertTrue(h.deliveries.values().stream().allMatch(c -> c == 1));
    }

    @Test
    void aRetransmissionOrACopyOfAnOpenAttemptEvictsNothing() {
        TrackerHarness h = new TrackerHarness(2);
        h.syn(T0, client(0), 1, "10.96.0.1", 443, 1);
        h.syn(T0 + MS, client(1), 1, "10.96.0.1", 443, 2);
        h.syn(T0 + 2 * MS, client(0), 1, "10.96.0.1", 443, 1);                // copy
        h.syn(T0 + 2 * MS, client(1), 1, "10.244.9.9", 8443, 2);              // DNAT'ed copy
        h.syn(T0 + S, client(0), 1, "10.96.0.1", 443, 1);                     // retransmission
        assertEquals(0, h.tracker.evicted());
        assertEquals(0, h.decided.size());
        assertEquals(2, h.tracker.attempts());
    }

    @Test
    void expiredAttemptsFreeTheirPlaceWithoutEviction() {
        TrackerHarness h = new TrackerHarness(5);
        for (int round = 0; round < 4; round++) {
            for (int i = 0; i < 5; i++) {
                h.syn(T0 + round * 4 * S + i, client(round * 5 + i), 1, "10.96.0.1", 443, i);
            }
        }
        h.finish();
        assertEquals(0, h.tracker.evicted());
        assertEquals(20, h.decided.size());
        assertEquals(15, h.decided.stream().filter(a -> a.outcome() == Outcome.UNANSWERED).count());
        assertEquals(5, h.decided.stream().filter(a -> a.outcome() == Outcome.PENDING).count());
    }

    /** Random traffic against a small table: every attempt is delivered once, evictions add up. */
    @Test
    void randomTrafficDeliversEveryAttemptExactlyOnce() {
        Random r = new Random(1234);
        int maxOpen = 32;
        TrackerHarness h = new TrackerHarness(maxOpen);
        long t = T0;
        int[] isns = new int[400];
        for (int i = 0; i < isns.length; i++) {
            isns[i] = r.nextInt();
        }
        for (int step = 0; step < 20_000; step++) {
            t += r.nextInt(100) == 0 ? r.nextInt(5000) * MS : r.nextInt(1000) * 1000L;
            int c = r.nextInt(isns.length);
            String cl = client(c);
            int port = 20000 + c;
            switch (r.nextInt(6)) {
                case 0, 1 -> h.syn(t, cl, port, "10.96.0.1", 443, isns[c]);
                case 2 -> h.synAck(t, r.nextBoolean() ? "10.96.0.1" : "10.244.200.1", 443, cl, port, 9, isns[c] + 1);
                case 3 -> h.rst(t, "10.96.0.1", 443, cl, port, 0, isns[c] + 1, true);
                case 4 -> {
                    isns[c] = r.nextInt(); // the client's next connection from the same port
                    h.syn(t, cl, port, "10.96.0.1", 443, isns[c]);
                }
                default -> h.tick(t);
            }
            assertTrue(h.tracker.open() <= maxOpen);
        }
        h.finish();
        assertEquals(0, h.tracker.open());
        assertEquals(h.tracker.attempts(), h.decided.size());
        assertTrue(h.deliveries.values().stream().allMatch(n -> n == 1), "delivered exactly once");
        long evicted = h.decided.stream().filter(a -> a.evicted).count();
        assertEquals(h.tracker.evicted(), evicted);
        assertTrue(evicted > 0, "the table did fill up");
        for (Attempt a : h.decided) {
            boolean answered = a.outcome() == Outcome.ANSWERED || a.outcome() == Outcome.BYPASSED
                    || a.outcome() == Outcome.REFUSED || a.outcome() == Outcome.REJECTED;
            if (a.evicted && !answered) {
                assertEquals(Outcome.EVICTED, a.outcome());
            }
            if (!a.evicted) {
                assertTrue(a.outcome() != Outcome.EVICTED);
            }
        }
    }
}
