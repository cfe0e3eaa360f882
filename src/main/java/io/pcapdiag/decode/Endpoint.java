package io.pcapdiag.decode;

import io.pcapdiag.decode.Ip;

/**
 * An address, with a port when {@code port >= 0}. Ordered v4 before v6, then numerically, so reports sort
 * the way people read addresses.
 */
public record Endpoint(long hi, long lo, int port) implements Comparable<Endpoint> {
    public static final int NO_PORT = -1;

    public static Endpoint address(long hi, long lo) {
        return new Endpoint(hi, lo, NO_PORT);
    }

    public Endpoint withoutPort() {
        return port == NO_PORT ? this : new Endpoint(hi, lo, NO_PORT);
    }

    public boolean sameAddress(Endpoint o) {
        return hi == o.hi && lo == o.lo;
    }

    public boolean isV4() {
        return Ip.isV4(hi, lo);
    }

    /** 127.0.0.0/8 or ::1: only a socket in the dialer's own network namespace answers it. */
    public boolean isLoopback() {
        return isV4() ? (lo & 0xff000000L) == 0x7f000000L : hi == 0 && lo == 1;
    }

    public String address() {
        return Ip.format(hi, lo);
    }

    /** {@code 10.0.0.1:80}, {@code [2001:db8::1]:80}, or the bare address. */
    @Override
    public String toString() {
        return port == NO_PORT ? Ip.format(hi, lo) : Ip.endpoint(hi, lo, port);
    }

    @Override
    public int compareTo(Endpoint o) {
        int c = Boolean.compare(!isV4(), !o.isV4());
        if (c == 0) {
            c = Long.compareUnsigned(hi, o.hi);
        }
        if (c == 0) {
            c = Long.compareUnsigned(lo, o.lo);
        }
        return c != 0 ? c : Integer.compare(port, o.port);
    }
}
