package io.pcapdiag.testing;

/** The Internet checksum (RFC 1071), for the packets the builders produce. */
public final class Checksum {
    private Checksum() {
    }

    /** One's-complement sum of {@code b[off, off+len)} as 16-bit big-endian words, folded, not inverted. */
    public static int sum(byte[] b, int off, int len, int initial) {
        long s = initial;
        int i = off;
        for (; i + 1 < off + len; i += 2) {
            s += ((b[i] & 0xff) << 8) | (b[i + 1] & 0xff);
        }
        if (i < off + len) {
            s += (b[i] & 0xff) << 8;
        }
        while ((s >>> 16) != 0) {
            s = (s & 0xffff) + (s >>> 16);
        }
        return (int) s;
    }

    public static int checksum(byte[] b, int off, int len) {
        return ~sum(b, off, len, 0) & 0xffff;
    }

    /** True when the stored checksum over the range verifies (the sum of all words is 0xffff). */
    public static boolean verifies(byte[] b, int off, int len) {
        return sum(b, off, len, 0) == 0xffff;
    }
}
