package io.pcapdiag.rules;

import static java.util.stream.Collectors.toMap;

import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The pattern table of docs/design.md, one class per row. Attempt rules name each decided attempt (the first
 * match, in this order); group rules then re-read whole groups with what the capture and the context
 * know (in this order, the first match wins).
 *
 * <pre>
 * stage    outcome     pattern              signature
 * attempt  BYPASSED    nat-bypass-reply     SYN-ACK with ack = ISN+1 from B:bp != V:vp, none from V:vp
 * attempt  REFUSED     connection-refused   RST with ack = ISN+1
 * attempt  REJECTED    vip-local-reject     ICMP port unreachable whose source is V itself
 * attempt  REJECTED    policy-reject        ICMP 3/9,10,13 or ICMPv6 1/1,5,6 (administratively prohibited)
 * attempt  REJECTED    icmp-unreachable     any other ICMP error quoting the SYN
 * attempt  REJECTED    udp-unreachable      (UDP) an ICMP error quoting the datagram or DNS query; first for UDP
 * attempt  ANSWERED    dns-race-lost        (DNS) asked again, answered only then, while the query its socket sent
 *                                           within 10 ms was answered at once
 * attempt  ANSWERED    dns-no-response      (DNS) answered only after it was asked again
 * attempt  ANSWERED    dns-error            (DNS) rcode SERVFAIL or REFUSED, or TC never asked again over TCP
 * attempt  ANSWERED    dns-search-expansion (DNS) NOERROR after >= 2 NXDOMAIN for its name + search suffixes, >= 10 ms
 * attempt  ANSWERED    delayed-connect      (TCP) answered by V:vp only after >= 1 SYN retransmission
 * attempt  UNANSWERED  dns-race-lost        (DNS) never answered, asked again, its socket's other query answered
 * attempt  UNANSWERED  dns-no-response      (DNS) asked again, or 5 s of capture after it
 * attempt  UNANSWERED  no-response          (TCP) nothing (SYN retransmitted, or 3 s of capture after it)
 * group    no-response or a bypass          S is a backend of V:p (DNAT'ed to S, or listed);
 *          answered from S itself           hairpin-self
 * group    no-response lb-probe-dropped     >= 2 client ports; S no backend of D:p; D:p answers others, or
 *                                           S is an LB ingress IP (or a VIP); not when the context lists
 *                                           every LB IP and S is none of them
 * connection (after an ANSWERED handshake, once the connection ended, idled or the capture ended; in this order):
 *          reset-after-reply    a segment to the client from another address than it dialed, where the client
 *                               receives it, and the client's RST to that address
 *          pmtu-blackhole       a data segment sent >= 3 times, never acknowledged, larger than any acknowledged,
 *                               the receiver never at a zero window
 *          reset-by-gone-endpoint  an ICMP unreachable quoting the client's segment, or the server's RST while the
 *                               client's data went unanswered though sent again
 * -        ANSWERED at once, PENDING, EVICTED, a UDP datagram (no DNS) unanswered   no finding
 * </pre>
 */
public final class Rules {
    private static final List<AttemptRule> ATTEMPT_RULES = List.of(
            new NatBypassReply(), new ConnectionRefused(), new UdpUnreachable(), new VipLocalReject(), new PolicyReject(),
            new IcmpUnreachable(), new DnsRaceLost(Outcome.ANSWERED), new DnsNoResponse(Outcome.ANSWERED), new DnsError(),
            new DnsSearchExpansion(), new DelayedConnect(), new DnsRaceLost(Outcome.UNANSWERED),
            new DnsNoResponse(Outcome.UNANSWERED), new NoResponse());
    private static final List<GroupRule> GROUP_RULES = List.of(new HairpinSelf(), new LbProbeDropped());
    /**
     * The connection rules, in the order they are tried on a followed connection once it is decided (an array: every
     * followed connection walks it, and a list's iterator would be allocated each time).
     */
    private static final ConnectionRule[] CONNECTION_RULES = {new ResetAfterReply(), new PmtuBlackhole(),
        new ResetByGoneEndpoint()};

    /** The attempt rules of each outcome, in order (an array: every decided attempt walks one). */
    private static final Map<Outcome, AttemptRule[]> BY_OUTCOME = new EnumMap<>(Outcome.class);
    private static final Map<Pattern, Rule> BY_PATTERN = Stream.of(ATTEMPT_RULES, GROUP_RULES, List.of(CONNECTION_RULES))
            .flatMap(List::stream).map(Rule.class::cast).collect(toMap(Rule::pattern, r -> r, (a, b) -> a, () -> new EnumMap<>(Pattern.class)));

    static {
        for (Outcome o : Outcome.values()) {
            BY_OUTCOME.put(o, ATTEMPT_RULES.stream().filter(r -> r.outcome() == o).toArray(AttemptRule[]::new));
        }
    }

    private Rules() {
    }

    /** The pattern an attempt shows on its own, or null when it is no finding (answered, pending, evicted). */
    public static Pattern classify(Attempt a) {
        for (AttemptRule r : BY_OUTCOME.get(a.outcome())) {
            if (r.matches(a)) {
                return r.pattern();
            }
        }
        return null;
    }

    /**
     * The pattern a connection followed after its handshake shows, or null: none, or it was evicted before it ended (its
     * handshake's pattern is {@link #classify}'s).
     */
    public static Pattern classifyConnection(Attempt a) {
        ConnectionRule r = connectionRule(a);
        return r == null ? null : r.pattern();
    }

    /** The first connection rule that matches {@code a}'s connection, or null. */
    static ConnectionRule connectionRule(Attempt a) {
        if (a.established() == null || a.established().evicted()) {
            return null;
        }
        for (ConnectionRule r : CONNECTION_RULES) {
            if (r.matches(a)) {
                return r;
            }
        }
        return null;
    }

    /** The group rules, in the order they are tried. */
    static List<GroupRule> groupRules() {
        return GROUP_RULES;
    }

    /** The rule of a pattern: its signature and its explanation. */
    public static Rule rule(Pattern p) {
        return BY_PATTERN.get(p);
    }
}
