package io.pcapdiag.track;

/**
 * Open addressing with linear probing over (client address, port, key), so that looking up a SYN-ACK,
 * RST or ICMP error allocates nothing. The key is the attempt's ISN (its DNS id for a query), or none: the table of
 * followed connections ({@link #byClient}) finds a connection by its client's address and port alone, since a segment
 * in the middle of a connection carries no ISN. Each slot keeps its entry's hash beside it: probes compare hashes
 * before touching the entry, and deletion (backward shift, Knuth 6.4 algorithm R, so no tombstones
 * accumulate over a long capture) never rehashes.
 *
 * <p>At most half full, and at most a quarter full from {@link #SPARSE_FROM} slots on. A table that large outgrows a
 * core's L2 cache, so every probe past the first is a cache miss, and a SYN flood's 262,144 open attempts (the default
 * {@code --max-open}) made 2.4 probes per lookup at a half; a quarter full costs 4 MB more at that size and takes most
 * of the table's time off a flood's tracker thread (docs/performance.md).
 */
final class AttemptTable {
    /** Slots from which the table is kept at most a quarter full. */
    static final int SPARSE_FROM = 1 << 16;
    /** Whether entries are keyed by their ISN too (every table but the followed connections'). */
    private final boolean byIsn;
    private Attempt[] slots = new Attempt[1024];
    private int[] hashes = new int[1024];
    private int mask = slots.length - 1;
    private int size;

    /** A table keyed by (client address, port, ISN or DNS id). */
    AttemptTable() {
        this(true);
    }

    private AttemptTable(boolean byIsn) {
        this.byIsn = byIsn;
    }

    /**
     * A table keyed by (client address, port) alone: at most one entry per client socket. Always at most a quarter
     * full: a followed connection is looked up for every segment of it, and removed once, each a probe run.
     */
    static AttemptTable byClient() {
        return new AttemptTable(false);
    }

    int size() {
        return size;
    }

    /** Slots, for tests of the load bound. */
    int capacity() {
        return slots.length;
    }

    Attempt get(long hi, long lo, int port, int isn) {
        int key = byIsn ? isn : 0;
        int h = hash(hi, lo, port, key);
        for (int i = h & mask; ; i = (i + 1) & mask) {
            Attempt a = slots[i];
            if (a == null || (hashes[i] == h && a.is(hi, lo, port, byIsn ? key : a.isn))) {
                return a;
            }
        }
    }

    /** The entry of the client socket {@code hi}:{@code lo}:{@code port} in a {@link #byClient} table, or null. */
    Attempt get(long hi, long lo, int port) {
        return get(hi, lo, port, 0);
    }

    private int key(Attempt a) {
        return byIsn ? a.isn : 0;
    }

    void put(Attempt a) {
        // Twice where the table reaches SPARSE_FROM slots half full.
        while (2 * (size + 1) > slots.length || ((slots.length >= SPARSE_FROM || !byIsn) && 4 * (size + 1) > slots.length)) {
            grow();
        }
        insert(a, hash(a.clientHi, a.clientLo, a.clientPort, key(a)));
        size++;
    }

    private void insert(Attempt a, int h) {
        int i = h & mask;
        while (slots[i] != null) {
            i = (i + 1) & mask;
        }
        slots[i] = a;
        hashes[i] = h;
    }

    void remove(Attempt a) {
        int i = hash(a.clientHi, a.clientLo, a.clientPort, key(a)) & mask;
        while (slots[i] != a) {
            if (slots[i] == null) {
                return;
            }
            i = (i + 1) & mask;
        }
        slots[i] = null;
        size--;
        // Move back any later entry of the probe run whose home slot no longer reaches it.
        for (int j = (i + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
            int home = hashes[j] & mask;
            boolean movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
            if (movable) {
                slots[i] = slots[j];
                hashes[i] = hashes[j];
                slots[j] = null;
                i = j;
            }
        }
    }

    private void grow() {
        Attempt[] old = slots;
        int[] oldHashes = hashes;
        slots = new Attempt[old.length * 2];
        hashes = new int[old.length * 2];
        mask = slots.length - 1;
        for (int i = 0; i < old.length; i++) {
            if (old[i] != null) {
                insert(old[i], oldHashes[i]);
            }
        }
    }

    private static int hash(long hi, long lo, int port, int isn) {
        long h = (lo * 0x9E3779B97F4A7C15L) ^ (hi * 0xC2B2AE3D27D4EB4FL) ^ ((long) port << 32 | (isn & 0xffffffffL));
        h *= 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
