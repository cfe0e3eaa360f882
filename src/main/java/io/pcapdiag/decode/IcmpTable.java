package io.pcapdiag.decode;

/** ICMP (RFC 792) and ICMPv6 (RFC 4443) errors: what they mean and how tcpdump words them. */
public final class IcmpTable {
    private IcmpTable() {
    }

    public static IcmpKind kind(int ipVersion, int type, int code) {
        if (ipVersion == 4) {
            if (type == 3) {
                return switch (code) {
                    case 0 -> IcmpKind.NO_ROUTE;
                    case 1 -> IcmpKind.HOST_UNREACHABLE;
                    case 3 -> IcmpKind.PORT_UNREACHABLE;
                    case 4 -> IcmpKind.FRAGMENTATION_NEEDED;
                    case 9, 10, 13 -> IcmpKind.POLICY;
                    default -> IcmpKind.OTHER_UNREACHABLE;
                };
            }
            return type == 11 ? IcmpKind.TIME_EXCEEDED : IcmpKind.PARAMETER_PROBLEM;
        }
        if (type == 1) {
            return switch (code) {
                case 0 -> IcmpKind.NO_ROUTE;
                case 3 -> IcmpKind.HOST_UNREACHABLE;
                case 4 -> IcmpKind.PORT_UNREACHABLE;
                case 1, 5, 6 -> IcmpKind.POLICY;
                default -> IcmpKind.OTHER_UNREACHABLE;
            };
        }
        if (type == 2) {
            return IcmpKind.PACKET_TOO_BIG;
        }
        return type == 3 ? IcmpKind.TIME_EXCEEDED : IcmpKind.PARAMETER_PROBLEM;
    }

    /** The names tcpdump prints for ICMP and ICMPv6 errors. */
    public static String name(int ipVersion, int type, int code) {
        if (ipVersion == 4) {
            if (type == 3) {
                return switch (code) {
                    case 0 -> "net unreachable";
                    case 1 -> "host unreachable";
                    case 2 -> "protocol unreachable";
                    case 3 -> "port unreachable";
                    case 4 -> "fragmentation needed";
                    case 9, 10 -> "host administratively prohibited";
                    case 13 -> "communication administratively prohibited";
                    default -> "destination unreachable (code " + code + ")";
                };
            }
            return type == 11 ? "time exceeded" : type == 12 ? "parameter problem" : "type " + type + " code " + code;
        }
        if (type == 1) {
            return switch (code) {
                case 0 -> "unreachable route";
                case 1 -> "unreachable prohibited";
                case 3 -> "unreachable address";
                case 4 -> "unreachable port";
                case 5 -> "source address failed policy";
                case 6 -> "reject route";
                default -> "destination unreachable (code " + code + ")";
            };
        }
        return type == 2 ? "packet too big" : type == 3 ? "time exceeded" : type == 4 ? "parameter problem"
                : "type " + type + " code " + code;
    }

    /**
     * As tcpdump's print-icmp.c / print-icmp6.c word the error, e.g. {@code ICMP 10.0.0.2 tcp port 80 unreachable}; the
     * errors of path MTU discovery with the {@code mtu} they state ({@link PacketView#icmpMtu}, -1 if not known):
     * {@code ICMP 10.244.0.18 unreachable - need to frag (mtu 1450)}, without the parenthesis for an MTU of 0 (a router
     * older than RFC 1191), and {@code ICMP6, packet too big, mtu 1280}, where tcpdump names no quoted address.
     */
    public static String tcpdumpText(int ipVersion, int type, int code, long quotedDstHi, long quotedDstLo, int quotedProtocol,
            int quotedDstPort, int mtu) {
        String proto = quotedProtocol == 17 ? " udp port " : " tcp port ";
        if (ipVersion == 4) {
            String addr = Ip.format(quotedDstHi, quotedDstLo);
            if (type != 3) {
                return "ICMP " + name(4, type, code);
            }
            return switch (code) {
                case 0 -> "ICMP net " + addr + " unreachable";
                case 1 -> "ICMP host " + addr + " unreachable";
                case 3 -> "ICMP " + addr + proto + (quotedDstPort >= 0 ? quotedDstPort : "?") + " unreachable";
                case 4 -> "ICMP " + addr + " unreachable - need to frag" + (mtu > 0 ? " (mtu " + mtu + ")" : "");
                case 10 -> "ICMP host " + addr + " unreachable - admin prohibited";
                case 13 -> "ICMP host " + addr + " unreachable - admin prohibited filter";
                default -> "ICMP " + addr + " " + name(4, type, code);
            };
        }
        String quoted = Ip.format(quotedDstHi, quotedDstLo) + (quotedDstPort >= 0 ? proto + quotedDstPort : "");
        return switch (type) {
            case 1 -> "ICMP6, destination unreachable, " + name(6, 1, code) + ", " + quoted;
            case 2 -> "ICMP6, packet too big" + (mtu >= 0 ? ", mtu " + mtu : "");
            case 3 -> "ICMP6, time exceeded in-transit, " + quoted;
            default -> "ICMP6, " + name(6, type, code) + ", " + quoted;
        };
    }
}
