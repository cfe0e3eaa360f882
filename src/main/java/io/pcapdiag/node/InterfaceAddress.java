package io.pcapdiag.node;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;

/** An address on an interface with its prefix length, written {@code 10.244.0.1/24}, {@code fe80::1/64}. */
public record InterfaceAddress(Endpoint address, int prefixLength) implements Comparable<InterfaceAddress> {
    public InterfaceAddress {
        address = address.withoutPort();
        int max = address.isV4() ? 32 : 128;
        if (prefixLength < 0 || prefixLength > max) {
            throw new IllegalArgumentException("prefix length " + prefixLength + " is not 0-" + max);
        }
    }

    /**
     * Parses {@code ADDRESS/LENGTH}.
     *
     * @throws IllegalArgumentException when it is not one
     */
    public static InterfaceAddress parse(String text) {
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException("not ADDRESS/PREFIXLENGTH: " + text);
        }
        long[] a = Ip.parse(text.substring(0, slash));
        int len;
        try {
            len = Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not ADDRESS/PREFIXLENGTH: " + text, e);
        }
        return new InterfaceAddress(Endpoint.address(a[0], a[1]), len);
    }

    /** Whether {@code a} is in this prefix (same family, same leading prefixLength bits). */
    public boolean contains(Endpoint a) {
        if (a.isV4() != address.isV4()) {
            return false;
        }
        int bits = address.isV4() ? prefixLength + 96 : prefixLength; // v4 is IPv4-mapped: 96 leading bits fixed
        return prefixBits(a.hi(), address.hi(), Math.min(bits, 64)) && prefixBits(a.lo(), address.lo(), Math.max(bits - 64, 0));
    }

    private static boolean prefixBits(long x, long y, int n) {
        return n == 0 || ((x ^ y) >>> (64 - n)) == 0;
    }

    @Override
    public int compareTo(InterfaceAddress o) {
        int c = address.compareTo(o.address);
        return c != 0 ? c : Integer.compare(prefixLength, o.prefixLength);
    }

    @Override
    public String toString() {
        return address.address() + "/" + prefixLength;
    }
}
