package io.pcapdiag.decode;

/**
 * What an ICMP/ICMPv6 error says about a connection attempt (see {@link IcmpTable}). {@link #FRAGMENTATION_NEEDED}
 * (ICMP type 3 code 4) and {@link #PACKET_TOO_BIG} (ICMPv6 type 2) are path MTU discovery's (RFC 1191, RFC 8201): the
 * packet was too big for a link, and the error states that link's MTU ({@link PacketView#icmpMtu}).
 */
public enum IcmpKind {
    PORT_UNREACHABLE, POLICY, NO_ROUTE, HOST_UNREACHABLE, FRAGMENTATION_NEEDED, PACKET_TOO_BIG, OTHER_UNREACHABLE,
    TIME_EXCEEDED, PARAMETER_PROBLEM;

    /**
     * Whether the error is about the path, not about what it leads to: a TTL that ran out (traceroute's probes) or a
     * packet too big for a link. Of a UDP datagram such an error says nothing about whether anything takes it.
     */
    public boolean aboutThePath() {
        return this == TIME_EXCEEDED || this == FRAGMENTATION_NEEDED || this == PACKET_TOO_BIG;
    }
}
