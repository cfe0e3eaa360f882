package io.pcapdiag.decode;

import io.pcapdiag.capture.Bytes;

/**
 * The one bounds-checked reader every protocol decoder goes through. {@code end} is the end of the
 * captured bytes; a read past it is the caller's cue to flag truncation, never an exception.
 */
final class Cursor {
    byte[] b;
    /** Start of the frame, so offsets can be given relative to it. */
    int start;
    int end;
    /**
     * The IP packet being decoded is the first fragment of a larger one (more fragments follow): its captured bytes end
     * where the fragment does, so a message running past them is incomplete, not cut by the capture.
     */
    boolean firstFragment;
    /** The UDP ports a DNS message is read on, besides 53: the cluster DNS Service's ({@link Decoder#Decoder(java.util.Collection)}). */
    int[] dnsPorts = new int[0];
    /**
     * Which DNS message of a TCP segment to read: 0 the first, n the one after n others (RFC 7766 6.2.1.1: a client
     * may send several queries in one segment, as glibc sends its A and AAAA).
     */
    int dnsMessage;
    /** Set by link decoders: the network protocol (ethertype) of what follows. */
    int netType;
    /** Set by {@link Ipv6#skipExtensions}: the protocol after the extension headers. */
    int next;

    /** Whether a datagram to or from {@code port} carries DNS: 53 (RFC 1035 4.2.1), or a port of the cluster DNS Service. */
    boolean dnsPort(int port) {
        if (port == Dns.PORT) {
            return true;
        }
        for (int p : dnsPorts) {
            if (p == port) {
                return true;
            }
        }
        return false;
    }

    boolean has(int off, int n) {
        return off >= start && n >= 0 && off <= end - n;
    }

    int u8(int off) {
        return b[off] & 0xff;
    }

    int u16(int off) {
        return Bytes.u16be(b, off);
    }

    int i32(int off) {
        return Bytes.i32be(b, off);
    }

    long i64(int off) {
        return Bytes.i64be(b, off);
    }

    long mac(int off) {
        return ((long) u16(off) << 32) | (i32(off + 2) & 0xffffffffL);
    }
}
