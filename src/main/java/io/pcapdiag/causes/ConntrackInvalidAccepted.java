package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code conntrack-invalid-accepted}: no firewall rule of the client's node drops what conntrack marks INVALID, so a
 * reply conntrack could not place (out of its window, nf_conntrack_proto_tcp.c tcp_in_window, or without its entry) was
 * forwarded as it was, with the backend's own address, and the client reset it (kubernetes #74839: kube-proxy adds
 * {@code -A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP} for this). The client's node is the one that DNAT'ed
 * the connection, so its conntrack entry is the one that reverse-NATs the replies. Judged on that node's facts
 * ({@code conntrack_invalid_drop_rules}, the rules of its family): confirmed when there is none, contradicted when one
 * drops INVALID; {@code nf_conntrack_tcp_be_liberal} (1: out-of-window segments are not marked INVALID at all) is
 * stated beside. Unknown when the rules are.
 */
final class ConntrackInvalidAccepted implements CauseRule {
    static final String BE_LIBERAL = "net.netfilter.nf_conntrack_tcp_be_liberal";

    @Override
    public Cause cause() {
        return Cause.CONNTRACK_INVALID_ACCEPTED;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.RESET_AFTER_REPLY);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        boolean v6 = !f.client().isV4();
        Optional<String> clientNode = context.nodeOf(f.client());
        // Node facts answer for their own node: the client's, when the cluster names it; else the capture's.
        Context node = clientNode.map(context::forNode).orElse(context);
        String name = clientNode.orElse(node.captureNode().map(Reading::value).orElse("the client's node"));
        List<String> fix = List.of((v6 ? "ip6tables" : "iptables") + " -I FORWARD -m conntrack --ctstate INVALID -j DROP"
                        + "   (on " + name + ": the rule kube-proxy keeps in KUBE-FORWARD; a segment conntrack cannot place is"
                        + " then dropped and sent again, not reset)",
                "sysctl -w " + BE_LIBERAL + "=1   (on " + name + ", kube-proxy's --conntrack-tcp-be-liberal: conntrack no longer"
                        + " marks out-of-window segments INVALID, and no longer guards against them)");
        Optional<Reading> rules = node.invalidDropRules(v6);
        if (rules.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        List<Fact> facts = new ArrayList<>();
        facts.add(rules.get().fact());
        Causes.addFact(facts, node.sysctl(BE_LIBERAL));
        return new CauseVerdict(cause(), rules.get().value() == null ? Verdict.CONFIRMED : Verdict.CONTRADICTED, facts, fix);
    }
}
