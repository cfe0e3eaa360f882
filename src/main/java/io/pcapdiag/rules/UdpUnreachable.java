package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.decode.IcmpKind;
import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code udp-unreachable}: an ICMP/ICMPv6 destination unreachable quoting a UDP datagram (a DNS query included); time
 * exceeded (a traceroute's probes) is none.
 */
final class UdpUnreachable implements AttemptRule {
    @Override
    public Pattern pattern() {
        return Pattern.UDP_UNREACHABLE;
    }

    @Override
    public Outcome outcome() {
        return Outcome.REJECTED;
    }

    @Override
    public boolean matches(Attempt a) {
        Sighting icmp = a.icmp();
        return a.udp() && !IcmpTable.kind(icmp.ipVersion, icmp.icmpType, icmp.icmpCode).aboutThePath();
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        Sighting icmp = a.icmp();
        String what = a.query() == null ? "a UDP datagram" : "the DNS query " + a.query().question();
        List<Statement> story = new ArrayList<>();
        if (a.quoteOnly()) {
            story.add(Statement.seen("An ICMP error quotes " + what + " from "
                    + new io.pcapdiag.decode.Endpoint(a.client().hi(), a.client().lo(), a.clientPort()) + " to "
                    + f.target() + "; the datagram itself is not in this capture (a live capture keeps ICMP errors, not"
                    + " every datagram).", icmp));
        } else {
            story.add(Statement.seen(f.client() + " sent " + what + " to " + f.target() + ".", a.syn()));
        }
        if (a.natCopy() != null) {
            story.add(Statement.seen("DNAT sent it on to " + a.natCopy().destination() + ".", a.natCopy()));
        }
        IcmpKind kind = IcmpTable.kind(icmp.ipVersion, icmp.icmpType, icmp.icmpCode);
        story.add(Statement.seen(icmp.source() + " answered with " + (icmp.ipVersion == 6 ? "ICMPv6 " : "ICMP ") + IcmpTable.name(icmp.ipVersion, icmp.icmpType,
                icmp.icmpCode) + " quoting it.", icmp));
        boolean portUnreachable = kind == IcmpKind.PORT_UNREACHABLE;
        if (portUnreachable) {
            story.add(Statement.cited("A host with no socket bound to a UDP port answers a datagram to it with ICMP port"
                    + " unreachable.", "RFC 1122 4.1.3.1; Linux net/ipv4/udp.c __udp4_lib_rcv"));
            if (a.natCopy() != null && !judged.ruledOut("stale-udp-conntrack")) {
                story.add(Statement.likely("Nothing listens on " + a.natCopy().destination() + ": the pod there is gone or"
                        + " not ready, and a conntrack entry made while it was still listed keeps sending this client's"
                        + " datagrams to it (UDP entries live as long as datagrams keep coming)."));
            } else {
                story.add(Statement.likely("Nothing listens on that port at " + icmp.source().address() + "."));
            }
        } else {
            story.add(Statement.likely("A router, filter or the host refused the datagram on the way."));
        }
        List<String> checks = new ArrayList<>();
        if (!judged.answered("stale-udp-conntrack")) {
            checks.add("conntrack -L -p udp --orig-dst " + f.target().address() + "   (on the node: where do the entries"
                    + " DNAT to?)");
            checks.add("kubectl get endpointslices -A -o wide   (is that address a ready endpoint of the Service?)");
        }
        return new Explanation(story, List.of(), checks, List.of(
                new Explanation.Remedy("delete the stale entries: conntrack -D -p udp --orig-dst " + f.target().address()
                        + " (kube-proxy does this when an endpoint of a UDP Service goes away; check its logs if it did not)",
                        "the client's next datagram makes a new entry to a ready endpoint", "stale-udp-conntrack"),
                new Explanation.Remedy("make the Service's selector match a ready pod listening on the port",
                        null, "service-no-endpoints")));
    }
}
