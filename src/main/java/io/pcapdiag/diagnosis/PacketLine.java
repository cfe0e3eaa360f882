package io.pcapdiag.diagnosis;

import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.track.DnsQuery;
import io.pcapdiag.track.Sighting;

/** A packet as tcpdump prints it, and where it was captured. */
public final class PacketLine {
    private PacketLine() {
    }

    /**
     * The interface: its pcapng name, or for {@code -i any} captures the index and direction as tcpdump
     * shows them (map the index to a name with {@code ip link} on the node), else null.
     */
    static String where(Sighting s) {
        if (s.interfaceName != null) {
            return s.interfaceName;
        }
        if (s.ifIndex < 0 && s.packetType < 0) {
            return null;
        }
        String dir = switch (s.packetType) {
            case 0 -> "In";
            case 1 -> "B";
            case 2 -> "M";
            case 3 -> "P";
            case 4 -> "Out";
            default -> "";
        };
        String idx = s.ifIndex >= 0 ? "ifindex " + s.ifIndex : "";
        return (idx + " " + dir).trim();
    }

    /** {@code IP 10.0.0.1.5555 > 10.0.0.2.80: Flags [S], seq 1, win 64240, length 0}, as tcpdump -n prints it. */
    public static String tcpdump(Sighting s) {
        StringBuilder sb = new StringBuilder(96);
        sb.append(s.ipVersion == 6 ? "IP6 " : "IP ");
        if (s.icmp) {
            sb.append(Ip.format(s.srcHi, s.srcLo)).append(" > ").append(Ip.format(s.dstHi, s.dstLo)).append(": ");
            return sb.append(IcmpTable.tcpdumpText(s.ipVersion, s.icmpType, s.icmpCode, s.quotedDstHi, s.quotedDstLo,
                    s.quotedProtocol, s.quotedDstPort, s.icmpMtu)).append(", length ").append(s.length).toString();
        }
        sb.append(Ip.dotted(s.srcHi, s.srcLo, s.srcPort)).append(" > ").append(Ip.dotted(s.dstHi, s.dstLo, s.dstPort));
        if (s.udp) {
            return udp(s, sb.append(": "));
        }
        sb.append(": Flags [").append(flags(s.flags)).append("], seq ").append(Integer.toUnsignedString(s.seq));
        if ((s.flags & PacketView.ACK) != 0) {
            sb.append(", ack ").append(Integer.toUnsignedString(s.ack));
        }
        sb.append(", win ").append(s.window).append(", length ").append(s.length);
        // DNS over TCP: the message after its two-octet length, as tcpdump prints it after the segment.
        return s.dnsId < 0 ? sb.toString() : dns(s, sb.append(' '), s.length - 2);
    }

    /**
     * A UDP datagram as tcpdump -n prints it ({@code UDP, length 19}); a DNS query as {@code 54822+ A? web.default.svc.cluster.local. (47)},
     * a response with its rcode as tcpdump names it, its question and its answer count
     * ({@code 28492 NXDomain A? api.example.com.default.svc.cluster.local. 0 answers (152)}).
     */
    private static String udp(Sighting s, StringBuilder sb) {
        if (s.dnsId < 0) {
            return sb.append("UDP, length ").append(s.length).toString();
        }
        return dns(s, sb, s.length);
    }

    /** The DNS message of {@code s}, {@code length} octets long. */
    private static String dns(Sighting s, StringBuilder sb, int length) {
        sb.append(s.dnsId);
        String question = s.dnsName == null ? "" : " " + DnsQuery.typeName(s.dnsType) + "? " + s.dnsName;
        if (!s.dnsResponse()) {
            sb.append((s.dnsFlags & 0x0100) != 0 ? "+" : "").append(question);
        } else {
            String rcode = switch (s.dnsRcode) {
                case 0 -> "";
                case 1 -> " FormErr";
                case 2 -> " ServFail";
                case 3 -> " NXDomain";
                case 4 -> " NotImp";
                case 5 -> " Refused";
                default -> " " + DnsQuery.rcodeName(s.dnsRcode);
            };
            sb.append(rcode).append((s.dnsFlags & 0x0200) != 0 ? " TC" : "").append(question).append(' ')
                    .append(s.dnsAnswers).append(s.dnsAnswers == 1 ? " answer" : " answers");
        }
        return sb.append(" (").append(length).append(')').toString();
    }

    /** tcpdump's flag letters, in its order: F S R P . U E W. */
    static String flags(int f) {
        StringBuilder sb = new StringBuilder(4);
        if ((f & PacketView.FIN) != 0) {
            sb.append('F');
        }
        if ((f & PacketView.SYN) != 0) {
            sb.append('S');
        }
        if ((f & PacketView.RST) != 0) {
            sb.append('R');
        }
        if ((f & PacketView.PSH) != 0) {
            sb.append('P');
        }
        if ((f & PacketView.ACK) != 0) {
            sb.append('.');
        }
        if ((f & PacketView.URG) != 0) {
            sb.append('U');
        }
        if ((f & PacketView.ECE) != 0) {
            sb.append('E');
        }
        if ((f & PacketView.CWR) != 0) {
            sb.append('W');
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }
}
