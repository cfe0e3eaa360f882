package io.pcapdiag.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.testing.Frames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The open-addressing table against a HashMap model: inserts, lookups and backward-shift removals. */
class AttemptTableTest {
    private record Key(long hi, long lo, int port, int isn) {
    }

    private static final Frame FRAME = Frames.frame(101, new byte[0]);

    private static Attempt attempt(Key k) {
        PacketView v = new PacketView();
        v.reset();
        v.kind = PacketView.Kind.TCP;
        v.ipVersion = k.hi() == 0 ? 4 : 6;
        v.srcHi = k.hi();
        v.srcLo = k.lo();
        v.srcPort = k.port();
        v.seq = k.isn();
        v.dstHi = 0;
        v.dstLo = 0xffff_0a60_0001L;
        v.dstPort = 443;
        v.flags = PacketView.SYN;
        return new Attempt(FRAME, v);
    }

    /** Keys from a small space so that equal fields and clustered slots are common. */
    private static Key randomKey(Random r) {
        long hi = r.nextInt(4) == 0 ? 0xfd00_0000_0000_0000L | r.nextInt(3) : 0;
        long lo = hi == 0 ? 0xffff_0a00_0000L | r.nextInt(64) : r.nextInt(64);
        return new Key(hi, lo, 30000 + r.nextInt(64), r.nextInt(8) == 0 ? -r.nextInt(16) : r.nextInt(256));
    }

    private static void assertMatchesModel(AttemptTable t, Map<Key, Attempt> model) {
        assertEquals(model.size(), t.size());
        for (Map.Entry<Key, Attempt> e : model.entrySet()) {
            Key k = e.getKey();
            assertSame(e.getValue(), t.get(k.hi(), k.lo(), k.port(), k.isn()), () -> "lost " + k);
        }
    }

    @Test
    void randomInsertsAndRemovesMatchAHashMap() {
        Random r = new Random(424242);
        AttemptTable t = new AttemptTable();
        Map<Key, Attempt> model = new HashMap<>();
        List<Key> keys = new ArrayList<>();
        int removedFromMiddleOfRuns = 0;
        for (int op = 0; op < 300_000; op++) {
            // Phases: grow past several doublings, shrink, and churn at a steady size.
            int phase = (op / 50_000) % 3;
            int target = phase == 0 ? 6000 : phase == 1 ? 50 : 700;
            boolean insert = model.size() < target ? r.nextInt(4) != 0 : r.nextInt(4) == 0;
            if (insert) {
                Key k = randomKey(r);
                if (!model.containsKey(k)) {
                    Attempt a = attempt(k);
                    t.put(a);
                    model.put(k, a);
                    keys.add(k);
                }
            } else if (!keys.isEmpty()) {
                int i = r.nextInt(keys.size());
                Key k = keys.get(i);
                keys.set(i, keys.get(keys.size() - 1));
                keys.remove(keys.size() - 1);
                Attempt a = model.remove(k);
                t.remove(a);
                assertNull(t.get(k.hi(), k.lo(), k.port(), k.isn()), "removed " + k);
                removedFromMiddleOfRuns++;
            }
            // Lookups of absent keys end at an empty slot, never at the wrong entry.
            Key probe = randomKey(r);
            Attempt found = t.get(probe.hi(), probe.lo(), probe.port(), probe.isn());
            assertSame(model.get(probe), found, () -> "lookup of " + probe);
            if (op % 997 == 0) {
                assertMatchesModel(t, model);
            }
        }
        assertMatchesModel(t, model);
        assertTrue(removedFromMiddleOfRuns > 100_000);
    }

    @Test
    void removingAnAttemptThatIsNotThereChangesNothing() {
        AttemptTable t = new AttemptTable();
        Map<Key, Attempt> model = new HashMap<>();
        Random r = new Random(7);
        while (model.size() < 300) {
            Key k = randomKey(r);
            if (!model.containsKey(k)) {
                Attempt a = attempt(k);
                t.put(a);
                model.put(k, a);
            }
        }
        Key absent = new Key(0, 0xffff_c000_0201L, 1, 1);
        t.remove(attempt(absent));
        // Another object with a key that is present: removal is by identity.
        Key present = model.keySet().iterator().next();
        t.remove(attempt(present));
        assertMatchesModel(t, model);
    }

    @Test
    void everythingRemovedLeavesAnEmptyTable() {
        AttemptTable t = new AttemptTable();
        List<Attempt> all = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            Attempt a = attempt(new Key(0, 0xffff_0a00_0000L | (i % 50), 1000 + i / 50, i));
            t.put(a);
            all.add(a);
        }
        assertEquals(5000, t.size());
        java.util.Collections.shuffle(all, new Random(3));
        for (Attempt a : all) {
            t.remove(a);
        }
        assertEquals(0, t.size());
        for (Attempt a : all) {
            assertNull(t.get(a.clientHi, a.clientLo, a.clientPort, a.isn));
        }
    }

    /**
     * Past {@link AttemptTable#SPARSE_FROM} slots the table is kept at most a quarter full, below it at most half, and
     * it still finds every entry through the growths between and the removals after.
     */
    @Test
    void aLargeTableIsKeptAtMostAQuarterFull() {
        AttemptTable t = new AttemptTable();
        Map<Key, Attempt> model = new HashMap<>();
        Random r = new Random(99);
        int sawSmall = 0;
        int sawSparse = 0;
        while (model.size() < 100_000) {
            Key k = new Key(r.nextInt(3) == 0 ? 0xfd00_0000_0000_0000L : 0, 0xffff_0a00_0000L | r.nextInt(1 << 20),
                    1024 + r.nextInt(60_000), r.nextInt());
            if (model.containsKey(k)) {
                continue;
            }
            Attempt a = attempt(k);
            t.put(a);
            model.put(k, a);
            int cap = t.capacity();
            if (cap < AttemptTable.SPARSE_FROM) {
                assertTrue(2 * t.size() <= cap, () -> t.size() + " in " + cap);
                sawSmall++;
            } else {
                assertTrue(4 * t.size() <= cap, () -> t.size() + " in " + cap);
                sawSparse++;
            }
        }
        assertTrue(sawSmall > 10_000 && sawSparse > 50_000, sawSmall + " / " + sawSparse);
        assertEquals(1 << 19, t.capacity());
        assertMatchesModel(t, model);
        List<Key> keys = new ArrayList<>(model.keySet());
        java.util.Collections.shuffle(keys, new Random(5));
        for (Key k : keys.subList(0, 60_000)) {
            t.remove(model.remove(k));
        }
        assertMatchesModel(t, model);
    }
}
