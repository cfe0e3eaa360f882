package io.pcapdiag.track;

import static io.pcapdiag.track.TrackerHarness.MS;
import static io.pcapdiag.track.TrackerHarness.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.testing.Frames;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A decided attempt belongs to the sink that says it holds it: one held from its decision on is still that attempt after
 * thousands of later SYNs came and were decided. One the sink lets go is reused for a later SYN, starting afresh.
 */
class AttemptLifecycleTest {
    private static PacketView synView(long srcLo, int srcPort, long dstLo, int dstPort, int isn) {
        PacketView v = new PacketView();
        v.reset();
        v.kind = PacketView.Kind.TCP;
        v.ipVersion = 4;
        v.srcHi = 0;
        v.srcLo = 0xffff_0000_0000L | srcLo;
        v.srcPort = srcPort;
        v.dstHi = 0;
        v.dstLo = 0xffff_0000_0000L | dstLo;
        v.dstPort = dstPort;
        v.seq = isn;
        v.flags = PacketView.SYN;
        v.ttl = 64;
        v.window = 64240;
        return v;
    }

    @Test
    void aHeldAttemptKeepsItsData() {
        Map<Attempt, String> held = new IdentityHashMap<>();
        int[] decisions = {0};
        HandshakeTracker tracker = new HandshakeTracker(a -> {
            decisions[0]++;
            // Every third one held, the others let go (and so reused).
            if (decisions[0] % 3 == 0) {
                held.put(a, describe(a));
                return true;
            }
            return false;
        }, 100_000);
        int n = 20_000;
        synsEveryMillisecond(tracker, n);
        assertEquals(n, decisions[0]);
        assertEquals(n / 3, held.size(), "distinct held attempt objects, each handed to the sink once");
        for (Map.Entry<Attempt, String> e : held.entrySet()) {
            assertEquals(e.getValue(), describe(e.getKey()), "a held attempt changed after its decision");
        }
    }

    @Test
    void anAttemptLetGoIsReusedAsANewAttempt() {
        Map<Attempt, Integer> seen = new IdentityHashMap<>();
        java.util.List<String> described = new java.util.ArrayList<>();
        HandshakeTracker tracker = new HandshakeTracker(a -> {
            seen.merge(a, 1, Integer::sum);
            described.add(describe(a));
            return false;
        }, 100_000);
        int n = 20_000;
        synsEveryMillisecond(tracker, n);
        assertEquals(n, described.size());
        assertTrue(seen.size() < n / 2, "decided attempts reused for later SYNs: " + seen.size() + " objects");
        // Each decision describes its own SYN: a reused attempt starts afresh.
        for (int i = 0; i < n; i++) {
            assertTrue(described.get(i).contains(" #" + (i + 1) + " "), described.get(i));
            assertTrue(described.get(i).endsWith(" 1 frames"), described.get(i));
        }
    }

    /** 1,000 SYNs a second, each from its own client port: each is decided 4 s later, while new ones come. */
    private static void synsEveryMillisecond(HandshakeTracker tracker, int n) {
        for (int i = 0; i < n; i++) {
            Frame f = Frames.frame(101, new byte[0], T0 + i * MS, "any");
            f.number = i + 1;
            tracker.observe(f, synView(0x0af4_0000L + i % 250, 30000 + i % 30000, 0x0a60_000aL, 80, i * 7919));
        }
        tracker.finish();
    }

    private static String describe(Attempt a) {
        return a.client() + " " + a.target() + " " + a.isn() + " #" + a.synFrame() + " " + a.synNanos() + " "
                + a.outcome() + " " + a.frames().size() + " frames";
    }
}
