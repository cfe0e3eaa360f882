package io.pcapdiag.testing;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Address literals to bytes, independently of the code under test. */
public final class Addresses {
    private Addresses() {
    }

    public static byte[] bytes(String literal) {
        try {
            return InetAddress.getByName(literal).getAddress(); // literals never cause a lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    public static byte[] v4(String literal) {
        byte[] b = bytes(literal);
        if (b.length != 4) {
            throw new IllegalArgumentException("not IPv4: " + literal);
        }
        return b;
    }

    public static byte[] v6(String literal) {
        byte[] b = bytes(literal);
        if (b.length == 16) {
            return b;
        }
        // InetAddress folds ::ffff:a.b.c.d to IPv4; widen it back.
        byte[] r = new byte[16];
        r[10] = (byte) 0xff;
        r[11] = (byte) 0xff;
        System.arraycopy(b, 0, r, 12, 4);
        return r;
    }

    /** The (hi, lo) pair pcapdiag uses for an address: IPv4 as ::ffff:a.b.c.d. */
    public static long[] hiLo(String literal) {
        byte[] b = v6(literal);
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = (hi << 8) | (b[i] & 0xff);
            lo = (lo << 8) | (b[i + 8] & 0xff);
        }
        return new long[] {hi, lo};
    }

    /** "aa:bb:cc:dd:ee:ff" to the 48-bit value. */
    public static long mac(String text) {
        return Long.parseLong(text.replace(":", ""), 16);
    }

    public static byte[] macBytes(long mac) {
        byte[] r = new byte[6];
        for (int i = 0; i < 6; i++) {
            r[i] = (byte) (mac >>> (8 * (5 - i)));
        }
        return r;
    }
}
