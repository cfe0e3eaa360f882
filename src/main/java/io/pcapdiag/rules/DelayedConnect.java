package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code delayed-connect}: answered by the dialed address, but only after the client retransmitted its
 * SYN at least once. The gap is the evidence: about 1 s (Linux's initial RTO) means the first SYN, or its
 * answer, was lost.
 */
final class DelayedConnect implements AttemptRule {
    @Override
    public Pattern pattern() {
        return Pattern.DELAYED_CONNECT;
    }

    @Override
    public Outcome outcome() {
        return Outcome.ANSWERED;
    }

    @Override
    public boolean matches(Attempt a) {
        return !a.exchange() && a.delayed();
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>();
        String delay = f.minDelayNanos() == f.maxDelayNanos() ? Words.seconds(f.minDelayNanos())
                : "between " + Words.seconds(f.minDelayNanos()) + " and " + Words.seconds(f.maxDelayNanos());
        story.add(Statement.seen(f.client() + " connected to " + f.target() + " only after retransmitting its SYN: the"
                + " SYN that was answered left " + delay + " after the first one.", a.syn(), a.answer()));
        long all = context.attemptsTo(f.target());
        if (all == 1 && f.attempts() == 1) {
            story.add(Statement.seen("It was the only attempt to " + f.target() + " in this capture."));
        } else if (all > 0 && all == f.attempts()) {
            story.add(Statement.seen("All " + all + " attempts to " + f.target() + " in this capture were delayed like this."));
        } else if (all > 0) {
            story.add(Statement.seen(f.attempts() + " of the " + Words.count(all, "attempt", "attempts") + " to " + f.target()
                    + " in this capture " + (f.attempts() == 1 ? "was" : "were") + " delayed like this."));
        }
        story.add(Statement.cited("A TCP client retransmits an unanswered SYN after its initial retransmission timeout:"
                + " 1 s on Linux, then doubling.", "RFC 6298 2.1, 5.5; Linux TCP_TIMEOUT_INIT"));
        List<String> drops = new ArrayList<>();
        if (!judged.ruledOut("conntrack-insert-race")) {
            drops.add("a conntrack insert race (two connections from one pod racing for the same NAT mapping)");
        }
        if (!judged.ruledOut("ipvs-conn-reuse")) {
            drops.add("IPVS dropping the SYN of a reused source port (conn_reuse_mode 1)");
        }
        if (!judged.ruledOut("conntrack-full")) {
            drops.add("a full conntrack table");
        }
        drops.add("a lossy path");
        story.add(Statement.likely("The first SYN or its SYN-ACK was dropped on the way: " + Words.alternatives(drops) + "."));
        List<Statement> obs = new ArrayList<>();
        obs.add(Statement.seen("the SYN was retransmitted " + Words.times(a.retransmissionsBeforeAnswer())
                + " before the answer in the first of these attempts", a.syn()));
        List<String> checks = new ArrayList<>();
        if (!judged.answered("conntrack-insert-race") || !judged.answered("conntrack-full")) {
            checks.add("conntrack -S   (on the node: insert_failed and drop rising?)");
        }
        if (!judged.answered("ipvs-conn-reuse")) {
            checks.add("cat /proc/sys/net/ipv4/vs/conn_reuse_mode; curl -s localhost:10249/proxyMode   (IPVS reuse drops)");
        }
        return new Explanation(story, obs, checks,
                List.of(
                new Explanation.Remedy("for a conntrack insert race on SNAT, have kube-proxy and the CNI masquerade with"
                        + " --random-fully (fully randomised source ports)", "needs iptables 1.6.2+ and a kernel with"
                        + " NF_NAT_RANGE_PROTO_RANDOM_FULLY", "conntrack-insert-race"),
                new Explanation.Remedy("in IPVS mode on kernels before 5.9, set net.ipv4.vs.conn_reuse_mode=0 on the nodes",
                        "connections reusing a port may then reach a terminating endpoint", "ipvs-conn-reuse")));
    }
}
