package io.pcapdiag.track;

import static io.pcapdiag.track.TrackerHarness.MS;
import static io.pcapdiag.track.TrackerHarness.S;
import static io.pcapdiag.track.TrackerHarness.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.testing.Frames;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The tracker reuses a decided attempt that nothing kept for a later SYN: the reused one must be the new attempt in
 * every field, and an attempt kept ({@link Attempt#keep}) must never be reused.
 */
class AttemptReuseTest {
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

    /** A value of {@code type} other than {@code not}: every kind of field an attempt has. */
    private static Object other(Class<?> type, Object not) {
        if (type == long.class) {
            return (Long) not + 1;
        }
        if (type == int.class) {
            return (Integer) not + 1;
        }
        if (type == boolean.class) {
            return !(Boolean) not;
        }
        Object v;
        if (type == Capture.class) {
            v = new Capture(7, "other.pcap");
        } else if (type == String.class) {
            v = "other0";
        } else if (type == Tunnel.class) {
            v = new Tunnel(PacketView.TUNNEL_VXLAN, 0, 0xffff_c000_0201L, 0, 0xffff_c000_0202L, 42, 4789);
        } else if (type == Sighting.class) {
            v = new Sighting(Frames.frame(101, new byte[0]), synView(9, 9, 9, 9, 9));
        } else if (type == ArrayList.class) {
            v = new ArrayList<>(List.of(new Sighting(Frames.frame(101, new byte[0]), synView(8, 8, 8, 8, 8))));
        } else if (type == Outcome.class) {
            v = not == Outcome.REFUSED ? Outcome.ANSWERED : Outcome.REFUSED;
        } else {
            throw new AssertionError("Attempt has a field of a type this test cannot vary: " + type
                    + "; add it here, and to Attempt.start");
        }
        assertNotEquals(not, v);
        return v;
    }

    private static List<Field> fields() {
        List<Field> out = new ArrayList<>();
        for (Field f : Attempt.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                f.setAccessible(true);
                out.add(f);
            }
        }
        return out;
    }

    @Test
    void aReusedAttemptIsTheNewAttemptInEveryField() throws Exception {
        Frame first = Frames.frame(101, new byte[0], T0, "eth0");
        first.number = 3;
        Frame second = Frames.frame(101, new byte[0], T0 + 5 * S, "cni0");
        second.number = 90;
        PacketView secondSyn = synView(0x0af4_0005L, 41000, 0x0a60_000aL, 443, 12345);
        Attempt fresh = new Attempt(second, secondSyn);
        fresh.expiresAt = 0; // as the tracker finds it before setting these
        fresh.queuedExpiry = 0;

        // An attempt whose every field differs from the fresh one's: whatever a life in the tracker could leave.
        Attempt used = new Attempt(first, synView(0x0af4_0006L, 42000, 0x0a60_000bL, 80, 777));
        for (Field f : fields()) {
            f.set(used, other(f.getType(), f.get(fresh)));
        }
        for (Field f : fields()) {
            assertNotEquals(f.get(fresh), f.get(used), f.getName());
        }

        used.start(second, secondSyn);
        for (Field f : fields()) {
            assertEquals(f.get(fresh), f.get(used), "field " + f.getName() + " of a reused attempt");
        }
    }

    @Test
    void decidedAttemptsNothingKeptAreReusedAndKeptOnesAreNot() {
        Map<Attempt, String> kept = new IdentityHashMap<>();
        Map<Attempt, Integer> delivered = new IdentityHashMap<>();
        int[] decisions = {0};
        HandshakeTracker tracker = new HandshakeTracker(a -> {
            decisions[0]++;
            delivered.merge(a, 1, Integer::sum);
            assertTrue(!kept.containsKey(a), "a kept attempt was handed out again");
            if (a.clientPort() % 3 == 0) {
                a.keep();
                kept.put(a, describe(a));
            }
        }, 100_000);
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            // 1,000 SYNs a second: each is decided 4 s later, while new ones come.
            Frame f = Frames.frame(101, new byte[0], T0 + i * MS, "any");
            f.number = i + 1;
            tracker.observe(f, synView(0x0af4_0000L + i % 250, 30000 + i % 30000, 0x0a60_000aL, 80, i * 7919));
        }
        tracker.finish();
        assertEquals(n, decisions[0]);
        assertTrue(delivered.size() < n / 2, delivered.size() + " distinct attempt objects for " + n + " attempts");
        for (Map.Entry<Attempt, String> e : kept.entrySet()) {
            assertEquals(e.getValue(), describe(e.getKey()), "a kept attempt changed after its decision");
        }
        assertTrue(kept.size() > n / 4, kept.size() + " kept");
    }

    private static String describe(Attempt a) {
        return a.client() + " " + a.target() + " " + a.isn() + " #" + a.synFrame() + " " + a.synNanos() + " "
                + a.outcome() + " " + a.frames().size() + " frames";
    }
}
