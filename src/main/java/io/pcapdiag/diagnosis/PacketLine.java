package io.pcapdiag.diagnosis;

import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.decode.PacketView;
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
                    s.quotedDstPort)).append(", length ").append(s.length).toString();
        }
        sb.append(Ip.dotted(s.srcHi, s.srcLo, s.srcPort)).append(" > ").append(Ip.dotted(s.dstHi, s.dstLo, s.dstPort))
                .append(": Flags [").append(flags(s.flags)).append("], seq ").append(Integer.toUnsignedString(s.seq));
        if ((s.flags & PacketView.ACK) != 0) {
            sb.append(", ack ").append(Integer.toUnsignedString(s.ack));
        }
        return sb.append(", win ").append(s.window).append(", length ").append(s.length).toString();
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
