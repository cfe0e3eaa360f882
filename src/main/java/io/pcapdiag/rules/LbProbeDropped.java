package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;
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
 * attempts stay {@code no-response}. A probe is addressed to the node itself, so attempts seen only inside an overlay
 * tunnel or only after DNAT to a pod are never probes.
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
        if (f.distinctClientPorts() < 2 || context.backendOf(f.client(), f.target()).isPresent()
                || onlyInsideTunnels(f) || !mayBeTheNode(f.target(), context)) {
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

    /**
     * A load balancer's health probe crosses no overlay: attempts whose SYN was seen only inside VXLAN, Geneve or IP in
     * IP are pod traffic between nodes.
     */
    static boolean onlyInsideTunnels(Finding f) {
        return f.examples().stream().allMatch(a -> a.frames().stream()
                .filter(s -> !s.icmp && (s.flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == PacketView.SYN)
                .allMatch(s -> s.tunnel != null));
    }

    /**
     * A probe is addressed to the node itself: its address, a NodePort or the Service's healthCheckNodePort (both ports
     * of the node's addresses). A target the context knows as a pod (the SYN seen only after DNAT) or as a ClusterIP is
     * none; one the node facts do not hold and the cluster does not name as a node is none either. With no context
     * that knows, the packets alone decide.
     */
    static boolean mayBeTheNode(Endpoint target, Context context) {
        Endpoint address = target.withoutPort();
        if (context.nodeAddress(address).isPresent()) {
            return true; // before the pods: a host-network pod has its node's address
        }
        if (context.service(target).map(s -> s.matchedBy().equals("NodePort")).orElse(false)) {
            return true;
        }
        Optional<Reading> local = context.localAddress(address);
        if (local.isPresent()) {
            return local.get().value() != null;
        }
        Optional<Ref> ref = context.ref(address);
        if (ref.isPresent() && Ref.POD.equals(ref.get().kind())) {
            return false;
        }
        return context.service(target).map(s -> !s.matchedBy().equals("ClusterIP")).orElse(true);
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
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
        story.add(Statement.likely(judged.ruledOut("lb-vip-bound-locally")
                ? "Something drops these probes by their source address: rp_filter on a multi-homed node, or a firewall"
                        + " rule for that source."
                : "These are a load balancer's health probes sourced from its own VIP, which kube-proxy"
                + " (IPVS) also bound to kube-ipvs0 on this node; the load balancer then marks every node unhealthy."
                + " Packets alone cannot tell this from another drop that depends on the source address (rp_filter on a"
                + " multi-homed node, a firewall rule for that source)."));
        String s = f.client().address();
        List<String> checks = new ArrayList<>();
        if (!judged.answered("lb-vip-bound-locally") && context.localAddress(f.client().withoutPort()).isEmpty()) {
            checks.add("ip addr show kube-ipvs0 | grep -w " + s + "   (on the node: is the probe's source a local address?)");
        }
        checks.add("sysctl -w net.ipv4.conf.all.log_martians=1; dmesg | grep -i martian   (the kernel logs each drop)");
        return new Explanation(story, List.of(), checks,
                List.of(
                new Explanation.Remedy("set status.loadBalancer.ingress[].ipMode: Proxy (Kubernetes 1.30+) for the Service",
                        "kube-proxy no longer binds the LB IP; in-cluster traffic to that IP goes through the load balancer",
                        "lb-vip-bound-locally"),
                new Explanation.Remedy("run a kube-proxy that does not bind the LB IP locally (iptables or nftables mode, or a"
                        + " version/setting that leaves it off kube-ipvs0)",
                        "leaving IPVS gives up its schedulers; test the change on one node pool first", "lb-vip-bound-locally")));
    }
}
