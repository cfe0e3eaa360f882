package io.pcapdiag.diagnosis;

import io.pcapdiag.decode.Ip;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Endpoint;
import java.util.List;

/**
 * A Wireshark display filter that selects exactly the packets pcapdiag counts to a finding's attempts:
 * per attempt, its SYN wherever it was seen (copies, DNAT'ed copies, retransmissions: same client port and
 * ISN), the SYN-ACKs and RSTs that acknowledge ISN+1, the client's RST with seq ISN+1, and the ICMP errors
 * quoting the SYN (Wireshark dissects the quoted header, so {@code tcp.seq_raw} matches inside them).
 */
public final class DisplayFilter {
    private DisplayFilter() {
    }

    /** The filter for these attempts (a finding's examples), their terms joined with {@code ||}. */
    public static String of(List<Attempt> attempts) {
        // One builder of about the final size: made by concatenation, each term's growing copies were the largest
        // part of what a JSON report allocated (PERFORMANCE.md).
        StringBuilder sb = new StringBuilder(720 * attempts.size());
        for (Attempt a : attempts) {
            if (sb.length() > 0) {
                sb.append(" || ");
            }
            append(sb, a);
        }
        return sb.toString();
    }

    private static void append(StringBuilder sb, Attempt a) {
        Endpoint c = a.client();
        String ip = c.isV4() ? "ip" : "ipv6";
        String client = Ip.format(c.hi(), c.lo());
        long isn = a.isn() & 0xffffffffL;
        long next = (isn + 1) & 0xffffffffL;
        int port = a.clientPort();
        // ICMP messages quote TCP headers too (errors, and ICMPv6 redirects): the TCP terms exclude them, the
        // ICMP term takes only errors. Inside a quote Wireshark shows the sequence number absolute in tcp.seq.
        sb.append("((!icmp && !icmpv6 && ((").append(ip).append(".src==").append(client).append(" && tcp.srcport==").append(port)
                .append(" && ((tcp.flags.syn==1 && tcp.flags.ack==0 && tcp.seq_raw==").append(isn)
                .append(") || (tcp.flags.reset==1 && tcp.seq_raw==").append(next).append("))) || (")
                .append(ip).append(".dst==").append(client).append(" && tcp.dstport==").append(port).append(" && tcp.ack_raw==").append(next)
                .append(" && (tcp.flags.syn==1 || tcp.flags.reset==1)))) || ")
                .append("((icmp.type==3 || icmp.type==11 || icmp.type==12 || icmpv6.type==1 || icmpv6.type==3 || icmpv6.type==4)")
                .append(" && ").append(ip).append(".dst==").append(client).append(" && tcp.srcport==").append(port)
                .append(" && (tcp.seq==").append(isn).append(" || tcp.seq_raw==").append(isn).append(")))");
    }
}
