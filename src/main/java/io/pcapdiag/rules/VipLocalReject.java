package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code vip-local-reject}: ICMP port unreachable (ICMPv6 code 4) whose source is the dialed address V
 * itself ({@link Attempt#portUnreachableFromTarget}). A TCP host answers a closed port with RST.
 */
final class VipLocalReject implements AttemptRule {
    @Override
    public Pattern pattern() {
        return Pattern.VIP_LOCAL_REJECT;
    }

    @Override
    public Outcome outcome() {
        return Outcome.REJECTED;
    }

    @Override
    public boolean matches(Attempt a) {
        return a.portUnreachableFromTarget();
    }

    /** Reply TTL/hop limit still at an initial value (64 Linux, 255 some stacks): generated 0 hops away. */
    static boolean zeroHops(int ttl) {
        return ttl == 64 || ttl == 255;
    }

    /** Answered within a millisecond: consistent with the node itself answering, not a remote host. */
    static boolean subMillisecond(long rttNanos) {
        return rttNanos >= 0 && rttNanos < 1_000_000L;
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        Sighting icmp = a.icmp();
        String vip = f.target().address();
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " dialed " + f.target() + " and got ICMP port unreachable from " + vip
                + " itself" + (f.attempts() > 1 ? ", in each of " + f.attempts() + " attempts." : "."), a.syn(), icmp));
        story.add(Statement.cited("A TCP host with nothing listening on a port answers a SYN with RST, not with ICMP.",
                "RFC 9293 3.10.7.1"));
        story.add(Statement.likely("A packet filter or IPVS on a node that holds " + vip + " answered for it: kube-proxy in"
                + " IPVS mode binds every LoadBalancer and external IP to kube-ipvs0, so a pod's connection to " + vip
                + " never leaves the node" + (judged.ruledOut("etp-local-no-local-endpoint") ? "." : "; with"
                + " externalTrafficPolicy: Local and no ready endpoint on this node the virtual server has no real server and"
                + " the SYN is rejected (curl: \"connection refused\").")));
        List<Statement> obs = new ArrayList<>();
        String hop = icmp.ipVersion == 6 ? "hop limit" : "TTL";
        obs.add(Statement.seen(zeroHops(icmp.ttl)
                ? "reply " + hop + " " + icmp.ttl + " is an initial value: the ICMP was generated 0 hops away, on this node"
                : "reply " + hop + " " + icmp.ttl + " is not an initial value (64/255): it crossed routers, so it was"
                        + " probably not generated on this node", icmp));
        long rtt = a.rttNanos();
        obs.add(Statement.seen(subMillisecond(rtt)
                ? "answered " + Words.millis(rtt) + " after the SYN: too fast for a remote host, consistent with this node answering"
                : "answered " + Words.millis(rtt) + " after the SYN: slower than a local answer would be", a.syn(), icmp));
        Words.retransmissions(f, obs);
        List<String> checks = new ArrayList<>();
        if (context.localAddress(f.target().withoutPort()).isEmpty()) { // the node facts answer it
            checks.add("ip addr show kube-ipvs0 | grep -w " + vip + "   (on the node: is the VIP bound locally?)");
        }
        if (!judged.answered("etp-local-no-local-endpoint")) {
            checks.add("kubectl get svc -A -o wide | grep -w " + vip + "   (which Service, and its externalTrafficPolicy)");
        }
        return new Explanation(story, obs, checks,
                List.of(
                new Explanation.Remedy("set externalTrafficPolicy: Cluster on the Service",
                        "every node forwards to any endpoint; backends see the node's address instead of the client's, and some traffic takes an extra hop",
                        "etp-local-no-local-endpoint"),
                new Explanation.Remedy("run the ingress as a DaemonSet so every node has a local endpoint",
                        "keeps the client source IP and ETP Local; one replica per node, and load spreads per node rather than per pod",
                        "etp-local-no-local-endpoint"),
                new Explanation.Remedy("from inside the cluster, dial the Service name (<svc>.<namespace>.svc) instead of the LB IP",
                        "traffic stays in the cluster and is balanced over all endpoints; clients need in-cluster configuration or split-horizon DNS"),
                new Explanation.Remedy("set status.loadBalancer.ingress[].ipMode: Proxy (Kubernetes 1.30+) so kube-proxy does not bind the LB IP",
                        "in-cluster traffic to the LB IP goes out through the cloud load balancer: more latency and LB traffic; the cloud provider must set it")));
    }
}
