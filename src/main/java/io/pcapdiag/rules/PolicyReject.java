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
 * {@code policy-reject}: an ICMP "administratively prohibited" error quoting the SYN: type 3 code 9, 10
 * or 13; ICMPv6 type 1 code 1, 5 or 6 ({@link IcmpKind#POLICY}).
 */
final class PolicyReject implements AttemptRule {
    @Override
    public Pattern pattern() {
        return Pattern.POLICY_REJECT;
    }

    @Override
    public Outcome outcome() {
        return Outcome.REJECTED;
    }

    @Override
    public boolean matches(Attempt a) {
        Sighting icmp = a.icmp();
        return IcmpTable.kind(icmp.ipVersion, icmp.icmpType, icmp.icmpCode) == IcmpKind.POLICY;
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        Sighting icmp = a.icmp();
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " dialed " + f.target() + " and " + f.responder() + " answered with ICMP "
                + IcmpTable.name(icmp.ipVersion, icmp.icmpType, icmp.icmpCode)
                + (f.attempts() > 1 ? ", in each of " + f.attempts() + " attempts." : "."), a.syn(), icmp));
        if (a.natCopy() != null) {
            story.add(Statement.seen("DNAT had sent the SYN on to " + a.natCopy().destination() + ".", a.natCopy()));
        }
        story.add(Statement.cited("\"Administratively prohibited\" is what a packet filter sends when a rule rejects a"
                + " packet and says so (iptables REJECT --reject-with icmp-admin-prohibited, icmp6-adm-prohibited);"
                + " a router with no route answers \"net unreachable\" instead.", "RFC 1812 5.2.7.1; RFC 4443 3.1"));
        story.add(Statement.likely(judged.ruledOut("network-policy")
                ? "A firewall rule on " + f.responder() + " rejected the connection."
                : "A NetworkPolicy (CNIs that reject rather than drop) or a firewall rule on " + f.responder()
                        + " rejected the connection."));
        List<Statement> obs = new ArrayList<>();
        Words.retransmissions(f, obs);
        String target = a.natCopy() != null ? a.natCopy().destination().address() : f.target().address();
        List<String> checks = new ArrayList<>();
        if (!judged.answered("network-policy")) {
            checks.add("kubectl get networkpolicy -A -o wide   (policies that select " + target + "'s pod)");
        }
        checks.add("iptables-save | grep -e REJECT -e " + target + "   (on " + f.responder() + ")");
        return new Explanation(story, obs, checks,
                List.of(
                new Explanation.Remedy("add an ingress rule admitting " + f.client() + " (its pod's labels or namespace) to the"
                        + " NetworkPolicy that selects the target pod, or an egress rule to the one that selects the client",
                        "it opens isolation someone set on purpose: read the blocking policy and ask its owner first, and"
                        + " admit the client's labels, not a CIDR, where you can", "network-policy"),
                new Explanation.Remedy("if no NetworkPolicy selects either pod, look for the firewall rule on " + f.responder(),
                        null)));
    }
}
