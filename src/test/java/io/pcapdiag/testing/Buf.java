package io.pcapdiag.testing;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;

/** A growable byte buffer with explicit byte order for every multi-byte write. Test-only. */
public final class Buf {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private ByteOrder order;

    public Buf() {
        this(ByteOrder.BIG_ENDIAN);
    }

    public Buf(ByteOrder order) {
        this.order = order;
    }

    public Buf order(ByteOrder o) {
        this.order = o;
        return this;
    }

    public int size() {
        return out.size();
    }

    public Buf u8(int v) {
        out.write(v & 0xff);
        return this;
    }

    public Buf u16(int v) {
        if (order == ByteOrder.BIG_ENDIAN) {
            u8(v >>> 8).u8(v);
        } else {
            u8(v).u8(v >>> 8);
        }
        return this;
    }

    public Buf u32(long v) {
        if (order == ByteOrder.BIG_ENDIAN) {
            u16((int) (v >>> 16)).u16((int) v);
        } else {
            u16((int) v).u16((int) (v >>> 16));
        }
        return this;
    }

    public Buf u64(long v) {
        if (order == ByteOrder.BIG_ENDIAN) {
            u32(v >>> 32).u32(v);
        } else {
            u32(v).u32(v >>> 32);
        }
        return this;
    }

    public Buf bytes(byte[] b) {
        out.write(b, 0, b.length);
        return this;
    }

    public Buf zeros(int n) {
        for (int i = 0; i < n; i++) {
            out.write(0);
        }
        return this;
    }

    /** Zero bytes up to the next multiple of {@code align}. */
    public Buf pad(int align) {
        while (out.size() % align != 0) {
            out.write(0);
        }
        return this;
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }

    /** Big-endian 16-bit put into an existing array. */
    public static void put16(byte[] b, int off, int v) {
        b[off] = (byte) (v >>> 8);
        b[off + 1] = (byte) v;
    }

    public static void put32(byte[] b, int off, long v) {
        put16(b, off, (int) (v >>> 16));
        put16(b, off + 2, (int) v);
    }

    public static byte[] concat(byte[]... parts) {
        Buf b = new Buf();
        for (byte[] p : parts) {
            b.bytes(p);
        }
        return b.toByteArray();
    }

    /** Parses "de ad be ef" style hex (whitespace ignored). */
    public static byte[] hex(String s) {
        String t = s.replaceAll("\\s+", "");
        byte[] r = new byte[t.length() / 2];
        for (int i = 0; i < r.length; i++) {
            r[i] = (byte) Integer.parseInt(t.substring(2 * i, 2 * i + 2), 16);
        }
        return r;
    }
}
