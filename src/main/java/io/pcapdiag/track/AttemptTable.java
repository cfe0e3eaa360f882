package io.pcapdiag.track;

/**
 * Open addressing with linear probing over (client address, port, ISN), so that looking up a SYN-ACK,
 * RST or ICMP error allocates nothing. Deletion shifts entries back (Knuth 6.4, algorithm R), so no
 * tombstones accumulate over a long capture.
 */
final class AttemptTable {
    private Attempt[] slots = new Attempt[1024];
    private int mask = slots.length - 1;
    private int size;

    int size() {
        return size;
    }

    Attempt get(long hi, long lo, int port, int isn) {
        for (int i = slot(hi, lo, port, isn); ; i = (i + 1) & mask) {
            Attempt a = slots[i];
            if (a == null || a.is(hi, lo, port, isn)) {
                return a;
            }
        }
    }

    void put(Attempt a) {
        if (2 * (size + 1) > slots.length) {
            grow();
        }
        int i = slot(a.clientHi, a.clientLo, a.clientPort, a.isn);
        while (slots[i] != null) {
            i = (i + 1) & mask;
        }
        slots[i] = a;
        size++;
    }

    void remove(Attempt a) {
        int i = slot(a.clientHi, a.clientLo, a.clientPort, a.isn);
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
            Attempt e = slots[j];
            int home = slot(e.clientHi, e.clientLo, e.clientPort, e.isn);
            boolean movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
            if (movable) {
                slots[i] = e;
                slots[j] = null;
                i = j;
            }
        }
    }

    private void grow() {
        Attempt[] old = slots;
        slots = new Attempt[old.length * 2];
        mask = slots.length - 1;
        size = 0;
        for (Attempt a : old) {
            if (a != null) {
                put(a);
            }
        }
    }

    private int slot(long hi, long lo, int port, int isn) {
        long h = (lo * 0x9E3779B97F4A7C15L) ^ (hi * 0xC2B2AE3D27D4EB4FL) ^ ((long) port << 32 | (isn & 0xffffffffL));
        h *= 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
