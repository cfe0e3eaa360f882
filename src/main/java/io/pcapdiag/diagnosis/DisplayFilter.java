package io.pcapdiag.diagnosis;

import static java.util.stream.Collectors.joining;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.track.Attempt;
import java.util.List;

/**
 * A Wireshark display filter that selects exactly the packets pcapdiag counts to a finding's attempts:
 * per attempt, its SYN wherever it was seen (copies, DNAT'ed copies, retransmissions: same client port and
 * ISN), the SYN-ACKs and RSTs that acknowledge ISN+1, the client's RST with seq ISN+1, and the ICMP errors
 * quoting the SYN (Wireshark dissects the quoted header, so {@code tcp.seq_raw} matches inside them). Per DNS query,
 * the messages with its id to and from the client's port and the ICMP errors quoting a datagram of that port; per
 * other UDP exchange, the datagrams to and from the client's port and the ICMP errors quoting them. Per connection a
 * finding after the handshake is about, the whole connection: every segment to and from the client's port, and the
 * ICMP errors quoting one (ICMPv6 "packet too big" among them), of which the finding's packets are a few.
 */
public final class DisplayFilter {
    private DisplayFilter() {
    }

    /** The filter for these attempts (a finding's examples), their terms joined with {@code ||}. */
    public static String of(List<Attempt> attempts) {
        return attempts.stream().map(DisplayFilter::term).collect(joining(" || "));
    }

    /** The filter for the connections of a finding after the handshake (its examples), their terms joined with {@code ||}. */
    public static String ofConnections(List<Attempt> attempts) {
        return attempts.stream().map(DisplayFilter::connectionTerm).collect(joining(" || "));
    }

    private static String connectionTerm(Attempt a) {
        Endpoint c = a.client();
        String ip = c.isV4() ? "ip" : "ipv6";
        String client = Ip.format(c.hi(), c.lo());
        int port = a.clientPort();
        String flow = "((" + ip + ".src==" + client + " && tcp.srcport==" + port + ") || (" + ip + ".dst==" + client
                + " && tcp.dstport==" + port + "))";
        return "((!icmp && !icmpv6 && " + flow + ") || ((icmp.type==3 || icmp.type==11 || icmpv6.type==1 || icmpv6.type==2"
                + " || icmpv6.type==3) && " + flow + "))";
    }

    private static String term(Attempt a) {
        if (a.exchange()) {
            return exchangeTerm(a);
        }
        Endpoint c = a.client();
        String ip = c.isV4() ? "ip" : "ipv6";
        String client = Ip.format(c.hi(), c.lo());
        long isn = a.isn() & 0xffffffffL;
        long next = (isn + 1) & 0xffffffffL;
        int port = a.clientPort();
        // ICMP messages quote TCP headers too (errors, and ICMPv6 redirects): the TCP terms exclude them, the
        // ICMP term takes only errors. Inside a quote Wireshark shows the sequence number absolute in tcp.seq.
        return "((!icmp && !icmpv6 && ((" + ip + ".src==" + client + " && tcp.srcport==" + port
                + " && ((tcp.flags.syn==1 && tcp.flags.ack==0 && tcp.seq_raw==" + isn
                + ") || (tcp.flags.reset==1 && tcp.seq_raw==" + next + "))) || ("
                + ip + ".dst==" + client + " && tcp.dstport==" + port + " && tcp.ack_raw==" + next
                + " && (tcp.flags.syn==1 || tcp.flags.reset==1)))) || "
                + "((icmp.type==3 || icmp.type==11 || icmp.type==12 || icmpv6.type==1 || icmpv6.type==3 || icmpv6.type==4)"
                + " && " + ip + ".dst==" + client + " && tcp.srcport==" + port
                + " && (tcp.seq==" + isn + " || tcp.seq_raw==" + isn + ")))";
    }

    /** A UDP exchange's or a DNS query's (over UDP or TCP) term. */
    private static String exchangeTerm(Attempt a) {
        Endpoint c = a.client();
        String ip = c.isV4() ? "ip" : "ipv6";
        String client = Ip.format(c.hi(), c.lo());
        int port = a.clientPort();
        String l4 = a.udp() ? "udp" : "tcp";
        String flow = "((" + ip + ".src==" + client + " && " + l4 + ".srcport==" + port + ") || (" + ip + ".dst==" + client
                + " && " + l4 + ".dstport==" + port + "))";
        // A DNS query's messages by their id, in a quote too (Wireshark dissects the DNS header an ICMP error quotes):
        // the socket's other queries and the errors quoting them are another query's.
        String datagrams = a.query() == null ? flow : "(dns.id==" + a.query().id() + " && " + flow + ")";
        return "((!icmp && !icmpv6 && " + datagrams + ") || ((icmp.type==3 || icmp.type==11 || icmpv6.type==1"
                + " || icmpv6.type==3) && " + datagrams + "))";
    }
}
