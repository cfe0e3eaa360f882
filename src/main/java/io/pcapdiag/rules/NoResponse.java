package io.pcapdiag.rules;

import io.pcapdiag.context.AnswerCounts;
import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;

/** {@code no-response}: unanswered attempts (retransmitted, or 3 s of capture after the SYN) matching nothing more specific. */
final class NoResponse implements AttemptRule {
    /**
     * A capture in which nothing answered this many attempts, to this many targets, is more likely to miss the answers
     * than to hold that many drops: a target that is down is one target.
     */
    static final long ONE_WAY_ATTEMPTS = 10;
    static final long ONE_WAY_TARGETS = 3;

    @Override
    public Pattern pattern() {
        return Pattern.NO_RESPONSE;
    }

    @Override
    public Outcome outcome() {
        return Outcome.UNANSWERED;
    }

    @Override
    public boolean matches(Attempt a) {
        return !a.exchange();
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " sent SYNs to " + f.target() + " (" + Words.count(f.attempts(), "attempt", "attempts")
                + ", " + Words.count(f.retransmissions(), "retransmission", "retransmissions")
                + ") and nothing came back in this capture.", a.syn()));
        List<String> checks = new ArrayList<>();
        if (a.natCopy() != null) {
            story.add(Statement.seen("DNAT sent the SYN on to " + a.natCopy().destination() + ".", a.natCopy()));
            checks.add("record with tcpdump -i any or on the pod's veth: a capture on the bridge device misses replies"
                    + " switched between its ports");
        }
        long unpaired = context.unpairedIcmpTo(f.client());
        if (unpaired > 0) {
            story.add(Statement.seen(Words.count(unpaired, "ICMP error", "ICMP errors") + " addressed to " + f.client()
                    + (unpaired == 1 ? " was" : " were") + " captured but cannot be paired with a SYN: the capture's snap"
                    + " length cut the packet they quote."));
            checks.add("record with a larger snap length (tcpdump -s 0) to see which connection the ICMP errors answer");
        }
        AnswerCounts all = context.answerCounts();
        boolean oneWay = all.answered() == 0 && all.unpaired() == 0 && all.decided() >= ONE_WAY_ATTEMPTS
                && all.targets() >= ONE_WAY_TARGETS;
        if (oneWay) {
            story.add(Statement.seen("None of the " + Words.count(all.decided(), "attempt", "attempts") + " this capture"
                    + " decided, to " + (all.targetsCapped() ? "at least " : "")
                    + Words.count(all.targets(), "target", "targets") + ", got any answer, and no SYN-ACK, RST or ICMP error"
                    + " about a TCP connection came for any other: the capture holds none."));
            story.add(Statement.likely("The capture holds one direction only (tcpdump -Q in, a one-way mirror port), or"
                    + " was taken where the answers do not pass (asymmetric routing: they leave by another interface or"
                    + " node)."));
            checks.add("record both directions where the answers pass: tcpdump -i any, without -Q in, on the node that"
                    + " sends them");
        }
        List<String> drops = new ArrayList<>();
        if (!judged.ruledOut("network-policy")) {
            drops.add("a NetworkPolicy");
        }
        drops.add("a firewall");
        if (!judged.ruledOut("etp-local-no-local-endpoint")) {
            drops.add("externalTrafficPolicy: Local in iptables mode");
        }
        if (!judged.ruledOut("rp-filter")) {
            drops.add("rp_filter");
        }
        story.add(Statement.likely((oneWay ? "Otherwise the SYN" : "The SYN") + " or its answer was dropped on the way: "
                + Words.alternatives(drops) + "."));
        return new Explanation(story, List.of(), checks, List.of(
                new Explanation.Remedy("with externalTrafficPolicy: Local in iptables mode, traffic to a node without a local endpoint is dropped: check endpoints per node",
                        "ETP Cluster forwards instead, at the cost of the client source IP", "etp-local-no-local-endpoint"),
                new Explanation.Remedy("check the NetworkPolicies that select the target pod (a default deny drops)",
                        "an allow rule opens isolation someone set on purpose: admit the client's labels, not a CIDR",
                        "network-policy"),
                new Explanation.Remedy("check node firewalls and cloud security groups", null)));
    }
}
