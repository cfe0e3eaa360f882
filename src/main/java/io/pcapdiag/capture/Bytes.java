package io.pcapdiag.capture;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unchecked multi-byte reads from a byte array. Callers check bounds first: the file readers against
 * what they buffered, the decoder against the captured length.
 */
public final class Bytes {
    private static final VarHandle I16_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I16_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I32_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I64_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Bytes() {
    }

    public static int u8(byte[] b, int o) {
        return b[o] & 0xff;
    }

    public static int u16(byte[] b, int o, boolean bigEndian) {
        return (bigEndian ? (short) I16_BE.get(b, o) : (short) I16_LE.get(b, o)) & 0xffff;
    }

    public static int u16be(byte[] b, int o) {
        return ((short) I16_BE.get(b, o)) & 0xffff;
    }

    public static int i32(byte[] b, int o, boolean bigEndian) {
        return bigEndian ? (int) I32_BE.get(b, o) : (int) I32_LE.get(b, o);
    }

    public static int i32be(byte[] b, int o) {
        return (int) I32_BE.get(b, o);
    }

    public static long u32(byte[] b, int o, boolean bigEndian) {
        return i32(b, o, bigEndian) & 0xffffffffL;
    }

    public static long i64be(byte[] b, int o) {
        return (long) I64_BE.get(b, o);
    }

    public static long i64(byte[] b, int o, boolean bigEndian) {
        return bigEndian ? (long) I64_BE.get(b, o) : (long) I64_LE.get(b, o);
    }
}
