package io.pcapdiag.track;

/**
 * Open addressing with linear probing over (client address, port, ISN), so that looking up a SYN-ACK,
 * RST or ICMP error allocates nothing. Each slot keeps its entry's hash beside it: probes compare hashes
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
    private Attempt[] slots = new Attempt[1024];
    private int[] hashes = new int[1024];
    private int mask = slots.length - 1;
    private int size;

    int size() {
        return size;
    }

    /** Slots, for tests of the load bound. */
    int capacity() {
        return slots.length;
    }

    Attempt get(long hi, long lo, int port, int isn) {
        int h = hash(hi, lo, port, isn);
        for (int i = h & mask; ; i = (i + 1) & mask) {
            Attempt a = slots[i];
            if (a == null || (hashes[i] == h && a.is(hi, lo, port, isn))) {
                return a;
            }
        }
    }

    void put(Attempt a) {
        // Twice where the table reaches SPARSE_FROM slots half full.
        while (2 * (size + 1) > slots.length || (slots.length >= SPARSE_FROM && 4 * (size + 1) > slots.length)) {
            grow();
        }
        insert(a, hash(a.clientHi, a.clientLo, a.clientPort, a.isn));
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
        int i = hash(a.clientHi, a.clientLo, a.clientPort, a.isn) & mask;
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
