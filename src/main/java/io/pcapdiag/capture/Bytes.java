package io.pcapdiag.capture;

import java.util.Objects;

/**
 * Multi-byte reads from a byte array. Callers check bounds first: the file readers against what they buffered,
 * the decoder against the captured length; each 4-byte read checks its own range once more, as the array's own
 * checks did (an {@code IndexOutOfBoundsException} past either end). Not VarHandle views or a {@code ByteBuffer}:
 * C1, which short runs live in, intrinsifies neither, and compiles a view's read to a chain of calls.
 *
 * <p>A 4-byte read is one load through {@code sun.misc.Unsafe} (which C1 compiles to a single move) after one
 * range check, where four byte loads made four checks: the reading thread's CPU samples on the bench trace 226 -> 192
 * a run (PERFORMANCE.md). On a JVM that warns when its memory access is used (JDK 24 and later, JEP 498), on a
 * big-endian CPU, or without {@code jdk.unsupported}, the reads are the plain shifts, which give the same values.
 */
public final class Bytes {
    private static final sun.misc.Unsafe UNSAFE = unsafe();
    /** Whether the 4-byte reads load through {@link #UNSAFE}: a constant C1 folds, leaving one of the two paths. */
    static final boolean LOADS = UNSAFE != null;
    private static final long BASE = LOADS ? UNSAFE.arrayBaseOffset(byte[].class) : 0;

    private Bytes() {
    }

    private static sun.misc.Unsafe unsafe() {
        if (Runtime.version().feature() >= 24 || java.nio.ByteOrder.nativeOrder() != java.nio.ByteOrder.LITTLE_ENDIAN) {
            return null;
        }
        try {
            java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    public static int u8(byte[] b, int o) {
        return b[o] & 0xff;
    }

    public static int u16(byte[] b, int o, boolean bigEndian) {
        return bigEndian ? u16be(b, o) : (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    public static int u16be(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    public static int i32(byte[] b, int o, boolean bigEndian) {
        return bigEndian ? i32be(b, o) : i32le(b, o);
    }

    // Each under the bytecode size C1 inlines at the depth the reading loop and the decoders call it from (35 bytes
    // for a method called by the one compiled, nine tenths of that for each level further in): a call each would
    // cost what the loads save.
    public static int i32be(byte[] b, int o) {
        return swap(i32le(b, o));
    }

    public static int i32le(byte[] b, int o) {
        return LOADS ? UNSAFE.getInt(b, at(b, o)) : i32leShifts(b, o);
    }

    /**
     * The address of {@code b[o]} for a 4-byte load, after the range check the array's own loads would make: {@code o}
     * from 0 to {@code b.length - 4}, that is an index below {@code b.length - 3} (0 or negative for an array of under
     * 4 bytes, which fails every index), with no sum that can overflow.
     */
    private static long at(byte[] b, int o) {
        return BASE + Objects.checkIndex(o, b.length - 3);
    }

    /** {@code Integer.reverseBytes}, which C1 leaves a call of its own (an intrinsic of C2's only). */
    private static int swap(int v) {
        return v << 24 | (v & 0xff00) << 8 | (v >>> 8) & 0xff00 | v >>> 24;
    }

    static int i32beShifts(byte[] b, int o) {
        return b[o] << 24 | (b[o + 1] & 0xff) << 16 | (b[o + 2] & 0xff) << 8 | (b[o + 3] & 0xff);
    }

    static int i32leShifts(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8 | (b[o + 2] & 0xff) << 16 | b[o + 3] << 24;
    }

    public static long u32(byte[] b, int o, boolean bigEndian) {
        return i32(b, o, bigEndian) & 0xffffffffL;
    }

    public static long i64be(byte[] b, int o) {
        return (long) i32be(b, o) << 32 | (i32be(b, o + 4) & 0xffffffffL);
    }

    public static long i64(byte[] b, int o, boolean bigEndian) {
        return bigEndian ? i64be(b, o) : (long) i32le(b, o + 4) << 32 | (i32le(b, o) & 0xffffffffL);
    }
}
