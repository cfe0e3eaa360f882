package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.decode.IcmpKind;
import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;

/** {@code icmp-unreachable}: any other ICMP/ICMPv6 error quoting the SYN. */
final class IcmpUnreachable implements AttemptRule {
    @Override
    public Pattern pattern() {
        return Pattern.ICMP_UNREACHABLE;
    }

    @Override
    public Outcome outcome() {
        return Outcome.REJECTED;
    }

    @Override
    public boolean matches(Attempt a) {
        return true;
    }

    @Override
    public Explanation explain(Finding f, Context context) {
        Attempt a = f.examples().get(0);
        Sighting icmp = a.icmp();
        IcmpKind kind = IcmpTable.kind(icmp.ipVersion, icmp.icmpType, icmp.icmpCode);
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " dialed " + f.target() + " and " + f.responder() + " answered with ICMP "
                + IcmpTable.name(icmp.ipVersion, icmp.icmpType, icmp.icmpCode) + ".", a.syn(), icmp));
        List<Explanation.Remedy> fixes;
        List<String> checks;
        if (kind == IcmpKind.PORT_UNREACHABLE) {
            story.add(Statement.cited("A TCP host answers a closed port with RST, not with ICMP; ICMP port unreachable is"
                    + " what an iptables REJECT rule sends by default.", "RFC 9293 3.10.7.1; iptables-extensions REJECT"));
            story.add(Statement.likely("A REJECT rule on the path answered: kube-proxy in iptables mode rejects connections"
                    + " to a Service that has no endpoints this way."));
            checks = List.of("iptables-save | grep -e REJECT -e " + f.target().address() + "   (on " + f.responder() + ")");
            fixes = List.of(
                    new Explanation.Remedy("check that the Service has ready endpoints: kubectl get endpointslices -l kubernetes.io/service-name=<svc>",
                            "a Service whose pods are all unready is rejected by design, until one is ready"),
                    new Explanation.Remedy("on " + f.responder() + ", look for the rule: iptables-save | grep -e REJECT -e " + f.target().address(),
                            null));
        } else if (kind == IcmpKind.POLICY) {
            story.add(Statement.likely("A filter on the path rejected it: a NetworkPolicy or firewall REJECT rule."));
            checks = List.of("kubectl get networkpolicy -A   (policies selecting " + f.target().address() + "'s pod)");
            fixes = List.of(new Explanation.Remedy("check NetworkPolicies and node firewalls between " + f.client() + " and " + f.target(),
                    "a default-deny policy rejects until an allow rule matches"));
        } else {
            story.add(Statement.likely("Something on the path has no way to deliver it: a missing route, or a host that"
                    + " does not answer ARP/ND."));
            checks = List.of("ip route get " + f.target().address() + "; ip neigh   (on " + f.responder() + ")");
            fixes = List.of(new Explanation.Remedy("check routes and neighbours for " + f.target().address() + " on " + f.responder()
                    + ": ip route get " + f.target().address() + "; ip neigh", null));
        }
        List<Statement> obs = new ArrayList<>();
        Words.retransmissions(f, obs);
        return new Explanation(story, obs, checks, fixes);
    }
}
