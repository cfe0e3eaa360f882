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

    @Test
    void aConnectionStateLetGoServesTheNextConnectionFollowedStartingAfresh() {
        // Every third attempt refused and held by its finding, the others answered, followed and let go: the connection
        // state of a connection decided goes back to the tracker, and serves the next connection followed, whichever
        // attempt object that is (a refusal held takes objects out of reuse, so new ones come). Every connection must be
        // judged on its own packets, and a held refusal shows none.
        Map<Established, Attempt> firstOwner = new IdentityHashMap<>();
        int[] sharedState = {0};
        java.util.List<String> connections = new java.util.ArrayList<>();
        java.util.List<Attempt> heldRefusals = new java.util.ArrayList<>();
        HandshakeTracker tracker = new HandshakeTracker(new TrackerSink() {
            @Override
            public boolean decided(Attempt a) {
                if (a.outcome() == Outcome.REFUSED) {
                    heldRefusals.add(a);
                    return true;
                }
                return false;
            }

            @Override
            public boolean followed(Attempt a) {
                Established e = a.established();
                Attempt before = firstOwner.putIfAbsent(e, a);
                if (before != null && before != a) {
                    sharedState[0]++;
                }
                connections.add(a.clientPort() + " mss " + e.client().mss() + "/" + e.server().mss()
                        + (e.serverReset() != null ? " reset" : "") + (e.clientReset() != null ? " client reset" : ""));
                return false;
            }
        }, 100_000);
        // 15 s of them: the first reused objects refused (from 4 s on) are decided from 8 s on, while new objects come.
        int n = 15_000;
        java.util.List<String> expected = new java.util.ArrayList<>();
        long server = 0x0a60_000aL;
        for (int i = 0; i < n; i++) {
            long t = T0 + i * MS;
            long client = 0x0af4_0000L + i % 250;
            int port = 30000 + i;
            int isn = i * 7919;
            // Which attempts are refused and which connections end with a RST: scattered, so that an object reused 4 s
            // later (the SYN of the same millisecond) serves another kind of connection than before.
            long mix = i * 0x9E37_79B9_7F4A_7C15L;
            if (Math.floorMod(mix >>> 20, 3) == 1) {
                observe(tracker, t, i, synView(client, port, server, 80, isn));
                observe(tracker, t + MS / 2, i, segment(server, 80, client, port, 0, isn + 1, PacketView.RST | PacketView.ACK, 0));
                continue;
            }
            int mss = 1000 + i % 400;
            int serverMss = 1200 + i % 200;
            int sisn = i * 104_729;
            PacketView syn = synView(client, port, server, 80, isn);
            syn.tcpMss = mss;
            observe(tracker, t, i, syn);
            PacketView synAck = segment(server, 80, client, port, sisn, isn + 1, PacketView.SYN | PacketView.ACK, 0);
            synAck.tcpMss = serverMss;
            observe(tracker, t + MS / 4, i, synAck);
            observe(tracker, t + MS / 2, i, segment(client, port, server, 80, isn + 1, sisn + 1, PacketView.ACK | PacketView.PSH, 100));
            boolean reset = Math.floorMod(mix >>> 40, 4) == 0;
            observe(tracker, t + 3 * MS / 4, i, segment(server, 80, client, port, sisn + 1, isn + 101,
                    reset ? PacketView.RST | PacketView.ACK : PacketView.FIN | PacketView.ACK, 0));
            if (!reset) {
                observe(tracker, t + 4 * MS / 5, i, segment(client, port, server, 80, isn + 101, sisn + 2, PacketView.FIN | PacketView.ACK, 0));
            }
            expected.add(port + " mss " + mss + "/" + serverMss + (reset ? " reset" : ""));
        }
        tracker.finish();
        connections.sort(null);
        expected.sort(null);
        assertEquals(expected, connections);
        assertEquals(n - expected.size(), heldRefusals.size());
        assertTrue(sharedState[0] > 0, "no connection state went from one attempt object to another");
        for (Attempt a : heldRefusals) {
            assertEquals(null, a.established(), "a held refusal shows a connection");
        }
    }

    private static void observe(HandshakeTracker tracker, long nanos, int i, PacketView v) {
        Frame f = Frames.frame(101, new byte[0], nanos, "any");
        f.number = i + 1;
        tracker.observe(f, v);
    }

    private static PacketView segment(long srcLo, int srcPort, long dstLo, int dstPort, int seq, int ack, int flags, int length) {
        PacketView v = synView(srcLo, srcPort, dstLo, dstPort, seq);
        v.ack = ack;
        v.flags = flags;
        v.tcpPayloadLength = length;
        v.ipPayloadLength = 20 + length;
        return v;
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
