package io.pcapdiag.capture;

/**
 * Multi-byte reads from a byte array, big- or little-endian. Callers check bounds first: the file readers against
 * what they buffered, the decoder against the captured length; a read past either end of the array still throws
 * {@code IndexOutOfBoundsException}, as the array's own loads do.
 */
public final class Bytes {
    private Bytes() {
    }

    public static int u8(byte[] b, int o) {
        return b[o] & 0xff;
    }

    public static int u16(byte[] b, int o, boolean bigEndian) {
        return bigEndian ? u16be(b, o) : u16le(b, o);
    }

    public static int u16le(byte[] b, int o) {
        return (b[o] & 0xff) | (b[o + 1] & 0xff) << 8;
    }

    public static int u16be(byte[] b, int o) {
        return (b[o] & 0xff) << 8 | (b[o + 1] & 0xff);
    }

    public static int i32(byte[] b, int o, boolean bigEndian) {
        return bigEndian ? i32be(b, o) : i32le(b, o);
    }

    // Two 16-bit halves: each method small enough for C1 to inline into its caller, where one 4-byte expression
    // is not (the record loop reads four per record).
    public static int i32be(byte[] b, int o) {
        return u16be(b, o) << 16 | u16be(b, o + 2);
    }

    public static int i32le(byte[] b, int o) {
        return u16le(b, o) | u16le(b, o + 2) << 16;
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
