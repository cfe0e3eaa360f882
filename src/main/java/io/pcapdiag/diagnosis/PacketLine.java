package io.pcapdiag.report;

import io.pcapdiag.decode.Ip;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.rules.Explain;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The packets that show a finding, each as tcpdump would print it. */
public final class Evidence {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    /**
     * One evidence packet.
     *
     * @param role      what it is in the story: syn, dnat-copy, syn-ack, rst, icmp, client-rst
     * @param capture   the file it is in
     * @param frame     its frame number there (tcpdump/Wireshark numbering, from 1)
     * @param time      UTC capture time
     * @param iface     interface name when the capture names it, else null
     * @param summary   a tcpdump-style one-line summary
     */
    public record Packet(String role, String capture, long frame, String time, String iface, String summary) {
    }

    private Evidence() {
    }

    /** The evidence of a finding: the packets of its first attempt. */
    public static List<Packet> of(Finding f) {
        Attempt a = f.examples().get(0);
        List<Packet> out = new ArrayList<>(4);
        out.add(packet("syn", a.syn()));
        if (a.natCopy() != null) {
            out.add(packet("dnat-copy", a.natCopy()));
        }
        Sighting answer = a.answer();
        if (answer != null) {
            out.add(packet(answer.icmp ? "icmp" : answer == a.reset() ? "rst" : "syn-ack", answer));
        }
        if (a.clientReset() != null) {
            out.add(packet("client-rst", a.clientReset()));
        }
        return out;
    }

    static Packet packet(String role, Sighting s) {
        return new Packet(role, s.capture.name(), s.frame, time(s.nanos), where(s), tcpdump(s));
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

    public static String time(long nanos) {
        return TIME.format(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L)));
    }

    /** {@code IP 10.0.0.1.5555 > 10.0.0.2.80: Flags [S], seq 1, win 64240, length 0}, as tcpdump -n prints it. */
    public static String tcpdump(Sighting s) {
        StringBuilder sb = new StringBuilder(96);
        sb.append(s.ipVersion == 6 ? "IP6 " : "IP ");
        if (s.icmp) {
            sb.append(Ip.format(s.srcHi, s.srcLo)).append(" > ").append(Ip.format(s.dstHi, s.dstLo)).append(": ");
            return sb.append(s.ipVersion == 4 ? icmp4(s) : icmp6(s)).append(", length ").append(s.length).toString();
        }
        sb.append(Ip.dotted(s.srcHi, s.srcLo, s.srcPort)).append(" > ").append(Ip.dotted(s.dstHi, s.dstLo, s.dstPort))
                .append(": Flags [").append(flags(s.flags)).append("], seq ").append(Integer.toUnsignedString(s.seq));
        if ((s.flags & PacketView.ACK) != 0) {
            sb.append(", ack ").append(Integer.toUnsignedString(s.ack));
        }
        return sb.append(", win ").append(s.window).append(", length ").append(s.length).toString();
    }

    /** As tcpdump's print-icmp.c words it, e.g. {@code ICMP 10.0.0.2 tcp port 80 unreachable}. */
    private static String icmp4(Sighting s) {
        String addr = Ip.format(s.quotedDstHi, s.quotedDstLo);
        if (s.icmpType != 3) {
            return "ICMP " + Explain.icmpName(4, s.icmpType, s.icmpCode);
        }
        return switch (s.icmpCode) {
            case 0 -> "ICMP net " + addr + " unreachable";
            case 1 -> "ICMP host " + addr + " unreachable";
            case 3 -> "ICMP " + addr + " tcp port " + (s.quotedDstPort >= 0 ? s.quotedDstPort : "?") + " unreachable";
            case 10 -> "ICMP host " + addr + " unreachable - admin prohibited";
            case 13 -> "ICMP host " + addr + " unreachable - admin prohibited filter";
            default -> "ICMP " + addr + " " + Explain.icmpName(4, s.icmpType, s.icmpCode);
        };
    }

    /** As tcpdump's print-icmp6.c words it, e.g. {@code ICMP6, destination unreachable, unreachable port, ...}. */
    private static String icmp6(Sighting s) {
        String quoted = Ip.format(s.quotedDstHi, s.quotedDstLo) + (s.quotedDstPort >= 0 ? " tcp port " + s.quotedDstPort : "");
        return switch (s.icmpType) {
            case 1 -> "ICMP6, destination unreachable, " + Explain.icmpName(6, 1, s.icmpCode) + ", " + quoted;
            case 3 -> "ICMP6, time exceeded in-transit, " + quoted;
            default -> "ICMP6, " + Explain.icmpName(6, s.icmpType, s.icmpCode) + ", " + quoted;
        };
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
