package io.pcapdiag.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The multi-byte reads against a {@code ByteBuffer}'s of the same bytes, and against the array's own bounds. */
class BytesTest {
    @Test
    void everyOffsetReadsWhatAByteBufferReads() {
        Random random = new Random(13);
        for (int length = 0; length <= 40; length++) {
            byte[] b = new byte[length];
            for (int round = 0; round < 50; round++) {
                random.nextBytes(b);
                ByteBuffer big = ByteBuffer.wrap(b).order(ByteOrder.BIG_ENDIAN);
                ByteBuffer little = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
                for (int o = 0; o + 4 <= length; o++) {
                    assertEquals(big.getInt(o), Bytes.i32be(b, o), "i32be at " + o);
                    assertEquals(little.getInt(o), Bytes.i32le(b, o), "i32le at " + o);
                    assertEquals(big.getInt(o) & 0xffffffffL, Bytes.u32(b, o, true));
                    assertEquals(little.getInt(o) & 0xffffffffL, Bytes.u32(b, o, false));
                }
                for (int o = 0; o + 8 <= length; o++) {
                    assertEquals(big.getLong(o), Bytes.i64be(b, o), "i64be at " + o);
                    assertEquals(big.getLong(o), Bytes.i64(b, o, true));
                    assertEquals(little.getLong(o), Bytes.i64(b, o, false), "i64 little-endian at " + o);
                }
            }
        }
    }

    @Test
    void aReadPastEitherEndThrowsAsTheArrayWould() {
        for (int length = 0; length <= 9; length++) {
            byte[] b = new byte[length];
            for (int o : new int[] {-4, -1, length - 3, length, length + 1, Integer.MAX_VALUE - 3, Integer.MAX_VALUE,
                Integer.MIN_VALUE}) {
                if (o >= 0 && o <= length - 4) {
                    continue;
                }
                int at = o;
                assertThrows(IndexOutOfBoundsException.class, () -> Bytes.i32le(b, at), "i32le at " + at + " of " + length);
                assertThrows(IndexOutOfBoundsException.class, () -> Bytes.i32be(b, at), "i32be at " + at + " of " + length);
            }
        }
    }
}
