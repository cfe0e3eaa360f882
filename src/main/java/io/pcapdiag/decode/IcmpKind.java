package io.pcapdiag.decode;

/** What an ICMP/ICMPv6 error says about a connection attempt (see {@link IcmpTable}). */
public enum IcmpKind {
    PORT_UNREACHABLE, POLICY, NO_ROUTE, HOST_UNREACHABLE, FRAGMENTATION_NEEDED, OTHER_UNREACHABLE, TIME_EXCEEDED,
    PARAMETER_PROBLEM
}
