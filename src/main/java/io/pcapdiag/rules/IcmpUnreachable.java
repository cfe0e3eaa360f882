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
    public Explanation explain(Finding f, Context context, Judged judged) {
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
                            "a Service whose pods are all unready is rejected by design, until one is ready",
                            "service-no-endpoints"),
                    new Explanation.Remedy("on " + f.responder() + ", look for the rule: iptables-save | grep -e REJECT -e " + f.target().address(),
                            null));
        } else if (kind == IcmpKind.POLICY) {
            story.add(Statement.likely("A filter on the path rejected it: a NetworkPolicy or firewall REJECT rule."));
            checks = context.policy(f.client(), f.target()).isPresent() ? List.of() // the cluster answered it
                    : List.of("kubectl get networkpolicy -A   (policies selecting " + f.target().address() + "'s pod)");
            fixes = List.of(new Explanation.Remedy("check NetworkPolicies and node firewalls between " + f.client() + " and " + f.target(),
                    "a default-deny policy rejects until an allow rule matches"));
        } else if (kind == IcmpKind.NO_ROUTE) {
            story.add(Statement.cited("A router with no route to a packet's destination drops it and answers network"
                    + " unreachable, no route to destination in ICMPv6.", "RFC 1812 5.2.7.1; RFC 4443 3.1"));
            story.add(Statement.likely(f.responder() + " has no route to " + f.target().address() + ": for a pod address, the"
                    + " route to the node that holds its pod CIDR is missing there (the CNI's routes, or the cloud's route"
                    + " table); for a Service or LoadBalancer address, nothing on that router translates or routes it."));
            checks = List.of("ip route get " + f.target().address() + "   (on " + f.responder() + ")",
                    "kubectl get nodes -o custom-columns=NAME:.metadata.name,CIDR:.spec.podCIDR   (the node each pod CIDR"
                    + " belongs to)");
            fixes = List.of(new Explanation.Remedy("add or repair the route to " + f.target().address() + " on " + f.responder()
                    + " (for a pod CIDR: the CNI's routes on the nodes, or the cloud route table)", null));
        } else if (kind == IcmpKind.HOST_UNREACHABLE) {
            story.add(Statement.cited("A router answers host unreachable, address unreachable in ICMPv6, when the destination"
                    + " is on a network it is attached to and does not answer its ARP or neighbour solicitation.",
                    "RFC 1812 5.2.7.1; RFC 4443 3.1"));
            story.add(Statement.likely("No host holds " + f.target().address() + " on " + f.responder() + "'s link any more: a pod"
                    + " that was deleted while an endpoint, a DNS answer or a conntrack entry still sends to its address, or"
                    + " a host that is down. A REJECT rule can send the same message."));
            checks = List.of("ip neigh show " + f.target().address() + "   (on " + f.responder() + ": FAILED or INCOMPLETE?)",
                    "kubectl get pods -A -o wide | grep -w " + f.target().address() + "   (does a pod hold it?)");
            fixes = List.of(new Explanation.Remedy("if no pod holds " + f.target().address() + ", find what still sends to it:"
                    + " kubectl get endpointslices -A -o wide | grep -w " + f.target().address() + "; conntrack -L -d "
                    + f.target().address() + " (a client that cached the address, from DNS or in a connection pool, dials"
                    + " it until it resolves the name again)", null));
        } else if (kind == IcmpKind.TIME_EXCEEDED && icmp.icmpCode == 0) {
            story.add(Statement.cited("A router that decrements a packet's TTL (hop limit) to zero drops it and answers with"
                    + " time exceeded in transit.", "RFC 1812 5.3.1; RFC 4443 3.3"));
            story.add(Statement.likely("The SYN went round a routing loop until its TTL ran out at " + f.responder() + ": two"
                    + " routers, or a node and its gateway, each routing " + f.target().address() + " to the other (a pod CIDR"
                    + " or a LoadBalancer address routed to a node that does not hold it and sends it back)."));
            checks = List.of("traceroute -n -T -p " + f.target().port() + " " + f.target().address()
                    + "   (from " + f.client().address() + ": the same hops repeating)",
                    "ip route get " + f.target().address() + "   (on each hop of the loop)");
            fixes = List.of(new Explanation.Remedy("find the hop whose route sends " + f.target().address() + " back where it came"
                    + " from and route it to the node or router that holds it", null));
        } else {
            story.add(Statement.likely("Something on the path could not deliver it (" + IcmpTable.name(icmp.ipVersion,
                    icmp.icmpType, icmp.icmpCode) + ")."));
            checks = List.of("ip route get " + f.target().address() + "; ip neigh   (on " + f.responder() + ")");
            fixes = List.of(new Explanation.Remedy("check routes and neighbours for " + f.target().address() + " on " + f.responder()
                    + ": ip route get " + f.target().address() + "; ip neigh", null));
        }
        List<Statement> obs = new ArrayList<>();
        Words.retransmissions(f, obs);
        return new Explanation(story, obs, checks, fixes);
    }
}
