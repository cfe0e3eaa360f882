package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code lb-probe-dropped}: at least 2 client ports from S to D:p, none answered, S is not a backend of
 * D:p, and D:p answers other sources or S is a LoadBalancer ingress IP ({@code --lb-ip}, the cluster, or
 * seen as a VIP). When the context lists every LB ingress IP and S is none of them, S is no probe: its
 * attempts stay {@code no-response}.
 */
final class LbProbeDropped implements GroupRule {
    @Override
    public Pattern pattern() {
        return Pattern.LB_PROBE_DROPPED;
    }

    /** Asked for every finding at the end of a run: made once. */
    private static final Set<Pattern> REFINES = Set.of(Pattern.NO_RESPONSE);

    @Override
    public Set<Pattern> refines() {
        return REFINES;
    }

    @Override
    public Optional<List<Fact>> matches(Finding f, Context context) {
        if (f.distinctClientPorts() < 2 || context.backendOf(f.client(), f.target()).isPresent()) {
            return Optional.empty();
        }
        Optional<Fact> lb = context.lbIngress(f.client());
        if (lb.isEmpty() && context.lbIngressComplete().isPresent()) {
            return Optional.empty();
        }
        List<Fact> facts = new ArrayList<>(2);
        lb.or(() -> context.serviceAddress(f.client())).ifPresent(facts::add);
        context.answersOthers(f.target(), f.client()).ifPresent(facts::add);
        return facts.isEmpty() ? Optional.empty() : Optional.of(facts);
    }

    @Override
    public Explanation explain(Finding f, Context context) {
        List<Sighting> syns = f.examples().stream().map(Attempt::syn).toList();
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " sent " + Words.count(f.attempts(), "connection attempt", "connection attempts")
                + " from " + Words.count(f.distinctClientPorts(), "source port", "source ports") + " to " + f.target()
                + " and none was answered" + (f.retransmissions() > 0 ? ", though the SYNs were retransmitted "
                + Words.times(f.retransmissions()) : "") + ".", syns));
        for (Fact fact : f.facts()) {
            story.add(Statement.fact(fact));
        }
        story.add(Statement.cited("Linux drops a packet that arrives with one of the node's own addresses as its source"
                + " (a martian) in the route lookup, before NAT or any socket sees it.",
                "Linux net/ipv4/fib_frontend.c, fib_validate_source()"));
        story.add(Statement.likely("These are a load balancer's health probes sourced from its own VIP, which kube-proxy"
                + " (IPVS) also bound to kube-ipvs0 on this node; the load balancer then marks every node unhealthy."
                + " Packets alone cannot tell this from another drop that depends on the source address (rp_filter on a"
                + " multi-homed node, a firewall rule for that source)."));
        String s = f.client().address();
        return new Explanation(story, List.of(), List.of(
                "ip addr show kube-ipvs0 | grep -w " + s + "   (on the node: is the probe's source a local address?)",
                "sysctl -w net.ipv4.conf.all.log_martians=1; dmesg | grep -i martian   (the kernel logs each drop)"),
                List.of(
                new Explanation.Remedy("set status.loadBalancer.ingress[].ipMode: Proxy (Kubernetes 1.30+) for the Service",
                        "kube-proxy no longer binds the LB IP; in-cluster traffic to that IP goes through the load balancer"),
                new Explanation.Remedy("run a kube-proxy that does not bind the LB IP locally (iptables or nftables mode, or a"
                        + " version/setting that leaves it off kube-ipvs0)",
                        "leaving IPVS gives up its schedulers; test the change on one node pool first")));
    }
}
