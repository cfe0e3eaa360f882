package io.pcapdiag.track;

import io.pcapdiag.decode.Endpoint;

/**
 * A table of entries keyed by address and port, looked up from the raw fields of an {@link Attempt} without
 * making an {@link Endpoint}: what the capture learns from every decided attempt, without an object made per
 * lookup (docs/performance.md).
 * Each entry carries its own key, so that a lookup reads one array and the entry it finds, the entry its
 * caller goes on to update. Open addressing with linear probing, at most half full; entries are never
 * removed.
 */
public final class EndpointTable<E extends EndpointTable.Entry> {
    /** What the table holds: an address and port (or {@link Endpoint#NO_PORT}), and what its user keeps with it. */
    public abstract static class Entry {
        final long hi;
        final long lo;
        final int port;

        protected Entry(Endpoint key) {
            this.hi = key.hi();
            this.lo = key.lo();
            this.port = key.port();
        }
    }

    private Entry[] entries = new Entry[64];
    private int size;

    public int size() {
        return size;
    }

    private static int hash(long hi, long lo, int port) {
        long h = (lo * 0x9E3779B97F4A7C15L ^ hi) * 0xC2B2AE3D27D4EB4FL ^ port;
        return (int) (h ^ (h >>> 29));
    }

    /** The slot of the key, or of the empty slot where it would go. */
    private int slot(long hi, long lo, int port) {
        Entry[] t = entries;
        int mask = t.length - 1;
        int i = hash(hi, lo, port) & mask;
        for (Entry e = t[i]; e != null && (e.lo != lo || e.port != port || e.hi != hi); e = t[i]) {
            i = (i + 1) & mask;
        }
        return i;
    }

    @SuppressWarnings("unchecked")
    public E get(long hi, long lo, int port) {
        return (E) entries[slot(hi, lo, port)];
    }

    public E get(Endpoint key) {
        return get(key.hi(), key.lo(), key.port());
    }

    /** Adds {@code e}, in place of an entry with the same key. */
    public void put(E e) {
        int i = slot(e.hi, e.lo, e.port);
        if (entries[i] == null) {
            if (2 * (size + 1) > entries.length) {
                grow();
                i = slot(e.hi, e.lo, e.port);
            }
            size++;
        }
        entries[i] = e;
    }

    private void grow() {
        Entry[] old = entries;
        entries = new Entry[old.length * 2];
        for (Entry e : old) {
            if (e != null) {
                entries[slot(e.hi, e.lo, e.port)] = e;
            }
        }
    }
}
