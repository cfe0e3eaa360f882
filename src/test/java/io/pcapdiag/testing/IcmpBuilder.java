package io.pcapdiag.testing;

import java.util.Arrays;

/**
 * ICMP (RFC 792) and ICMPv6 (RFC 4443) messages. Errors quote the first {@code quoteLen} bytes of the
 * offending packet, the way routers and the Linux stack do (RFC 1812 4.3.2.3: as much as fits).
 * Checksums are filled in by the IP builders.
 */
public final class IcmpBuilder {
    public static final int V4_ECHO_REPLY = 0;
    public static final int V4_UNREACHABLE = 3;
    public static final int V4_REDIRECT = 5;
    public static final int V4_ECHO = 8;
    public static final int V4_TIME_EXCEEDED = 11;
    public static final int V4_PARAMETER_PROBLEM = 12;
    public static final int V4_PORT_UNREACHABLE = 3;
    public static final int V4_HOST_PROHIBITED = 10;
    public static final int V6_UNREACHABLE = 1;
    public static final int V6_PACKET_TOO_BIG = 2;
    public static final int V6_TIME_EXCEEDED = 3;
    public static final int V6_PARAMETER_PROBLEM = 4;
    public static final int V6_ECHO = 128;
    public static final int V6_NEIGHBOR_SOLICIT = 135;
    public static final int V6_PORT_UNREACHABLE = 4;

    private IcmpBuilder() {
    }

    /** Type, code, checksum 0, the 4-byte rest-of-header, body. */
    public static byte[] message(int type, int code, int restOfHeader, byte[] body) {
        return new Buf().u8(type).u8(code).u16(0).u32(restOfHeader & 0xffffffffL).bytes(body).toByteArray();
    }

    /** An ICMP error of {@code type}/{@code code} quoting the first {@code quoteLen} bytes of {@code packet}. */
    public static byte[] error(int type, int code, byte[] packet, int quoteLen) {
        return message(type, code, 0, Arrays.copyOf(packet, Math.min(quoteLen, packet.length)));
    }

    public static byte[] v4Unreachable(int code, byte[] packet, int quoteLen) {
        return error(V4_UNREACHABLE, code, packet, quoteLen);
    }

    /** ICMPv6 type 1 (destination unreachable): code 4 is port unreachable. */
    public static byte[] v6Unreachable(int code, byte[] packet, int quoteLen) {
        return error(V6_UNREACHABLE, code, packet, quoteLen);
    }

    public static byte[] v4Echo(int id, int seq) {
        return message(V4_ECHO, 0, (id << 16) | seq, new byte[] {1, 2, 3, 4});
    }
}
