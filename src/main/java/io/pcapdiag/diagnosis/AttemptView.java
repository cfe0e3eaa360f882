package io.pcapdiag.diagnosis;

import io.pcapdiag.track.DnsQuery;
import io.pcapdiag.track.ExchangeKind;
import io.pcapdiag.decode.Endpoint;
import java.util.List;

/**
 * One connection attempt as {@code --attempts} lists it: who dialed what, how it ended, and where its SYN
 * was seen.
 *
 * @param client          the client's address
 * @param clientPort      its port
 * @param isn             the SYN's initial sequence number (what identifies the attempt with client and port)
 * @param target          what it dialed, address:port
 * @param outcome         answered, bypassed, refused, rejected, unanswered, pending or evicted
 * @param pattern         the pattern its finding has, or null when it is none
 * @param responder       who answered (ip:port, or the ICMP error's source), or null
 * @param retransmissions SYN retransmissions
 * @param connectNanos    first SYN to the target's SYN-ACK, or -1 when the target did not answer
 * @param firstSyn        capture time of the first SYN
 * @param path            where its SYN was seen, in order
 * @param kind            a TCP connection attempt, a DNS query or another UDP exchange (then {@code isn} means nothing)
 * @param query           a DNS query's id and question, else null
 * @param rcode           a DNS query's answer's rcode, else -1
 */
public record AttemptView(Endpoint client, int clientPort, long isn, Endpoint target, String outcome, String pattern,
                          Endpoint responder, int retransmissions, long connectNanos, long firstSyn,
                          List<PathHop> path, ExchangeKind kind, DnsQuery query, int rcode) {
    public AttemptView {
        path = List.copyOf(path);
    }

    /** The client's address and port as every endpoint is written ({@code 10.0.0.1:40001}, {@code [2001:db8::1]:40001}). */
    public String clientEndpoint() {
        return new Endpoint(client.hi(), client.lo(), clientPort).toString();
    }
}
