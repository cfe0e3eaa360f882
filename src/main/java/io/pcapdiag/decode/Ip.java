package io.pcapdiag.decode;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** 128-bit addresses as (hi, lo) pairs: IPv4 is IPv4-mapped. Text form as tcpdump prints it (RFC 5952 for v6). */
public final class Ip {
    private Ip() {
    }

    public static boolean isV4(long hi, long lo) {
        return hi == 0 && (lo >>> 32) == 0xffffL;
    }

    public static String format(long hi, long lo) {
        if (isV4(hi, lo)) {
            return ((lo >>> 24) & 0xff) + "." + ((lo >>> 16) & 0xff) + "." + ((lo >>> 8) & 0xff) + "." + (lo & 0xff);
        }
        int[] g = new int[8];
        for (int i = 0; i < 4; i++) {
            g[i] = (int) (hi >>> (48 - 16 * i)) & 0xffff;
            g[i + 4] = (int) (lo >>> (48 - 16 * i)) & 0xffff;
        }
        // RFC 5952 4.2: compress the longest run (of at least two) of zero groups, the first if tied.
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /** {@code a.b.c.d:port} or {@code [v6]:port}, as docs/design.md's JSON contract writes endpoints. */
    public static String endpoint(long hi, long lo, int port) {
        String a = format(hi, lo);
        return isV4(hi, lo) ? a + ":" + port : "[" + a + "]:" + port;
    }

    /** tcpdump's {@code addr.port} form. */
    public static String dotted(long hi, long lo, int port) {
        return format(hi, lo) + "." + port;
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * {@code 02:42:0a:f4:00:05}: the low 48 bits, lower case, as ip link and tcpdump -e print it. By hand: six
     * String.format calls per address parsed their pattern each time.
     */
    public static String mac(long mac) {
        char[] c = new char[17];
        for (int i = 0; i < 6; i++) {
            int b = (int) (mac >>> (8 * (5 - i))) & 0xff;
            c[3 * i] = HEX[b >>> 4];
            c[3 * i + 1] = HEX[b & 0xf];
            if (i < 5) {
                c[3 * i + 2] = ':';
            }
        }
        return new String(c);
    }

    /**
     * Parses a literal IPv4 or IPv6 address (no name lookups) into {hi, lo}.
     *
     * @throws IllegalArgumentException when it is not an address literal
     */
    public static long[] parse(String text) {
        String t = text.trim();
        if (t.indexOf(':') < 0) {
            // IPv4 by hand: InetAddress takes "1.2.3" and "4294967295" (inet_aton forms), and sends an
            // invalid dotted string such as 10.0.0.256 to the resolver as a host name.
            return new long[] {0, Ipv4.MAPPED | dottedQuad(t, text)};
        }
        byte[] b;
        try {
            b = InetAddress.getByName(t).getAddress(); // a literal never triggers a lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + text, e);
        }
        long hi = 0;
        long lo = 0;
        if (b.length == 4) {
            lo = Ipv4.MAPPED | ((b[0] & 0xffL) << 24) | ((b[1] & 0xffL) << 16) | ((b[2] & 0xffL) << 8) | (b[3] & 0xffL);
        } else {
            for (int i = 0; i < 8; i++) {
                hi = (hi << 8) | (b[i] & 0xff);
                lo = (lo << 8) | (b[i + 8] & 0xff);
            }
        }
        return new long[] {hi, lo};
    }

    /** Exactly four decimal parts of 1 to 3 digits, each at most 255. */
    private static long dottedQuad(String t, String text) {
        String[] parts = t.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IP address: " + text);
        }
        long v = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
                throw new IllegalArgumentException("not an IP address: " + text);
            }
            int n = Integer.parseInt(p);
            if (n > 255) {
                throw new IllegalArgumentException("not an IP address: " + text);
            }
            v = (v << 8) | n;
        }
        return v;
    }
}
