package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Established;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code reset-after-reply}: on an established connection, a segment reached the client from another address than the
 * one it dialed (the backend's own, where the client itself received it) and the client reset it: the segment skipped
 * reverse NAT, because conntrack had no valid entry for it and no rule dropped it.
 */
final class ResetAfterReply implements ConnectionRule {
    @Override
    public Pattern pattern() {
        return Pattern.RESET_AFTER_REPLY;
    }

    @Override
    public boolean matches(Attempt a) {
        Established e = a.established();
        return e.wrongSource() != null && e.clientResetOther() != null;
    }

    @Override
    public Endpoint responder(Attempt a) {
        return a.established().wrongSource().source();
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        Established e = a.established();
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " connected to " + f.target() + " and the dialed address answered.", a.syn()));
        if (a.natCopy() != null) {
            story.add(Statement.seen("DNAT sent the connection on to " + a.natCopy().destination() + ".", a.natCopy()));
        }
        story.add(Statement.seen(Words.seconds(e.wrongSource().nanos - a.synNanos()) + " after the SYN, a segment of the"
                + " connection reached the client from " + f.responder() + ", not from " + f.target() + ".", e.wrongSource()));
        story.add(Statement.seen("The client answered it with RST to " + f.responder() + ".", e.clientResetOther()));
        if (e.serverReset() != null) {
            story.add(Statement.seen("The connection then ended with RST from " + e.serverReset().source() + ", "
                    + Words.seconds(e.serverReset().nanos - e.clientResetOther().nanos) + " later.", e.serverReset()));
        } else if (e.clientReset() != null) {
            story.add(Statement.seen("The client then reset the connection itself.", e.clientReset()));
        }
        story.add(Statement.cited("A TCP stack answers a segment that matches none of its connections with RST (SEQ = the"
                + " segment's ACK); the client's socket is connected to the Service address, not the backend's.",
                "RFC 9293 3.10.7.1"));
        story.add(Statement.cited("Conntrack rewrites a reply's source back to the Service address only through the entry"
                + " that DNAT'ed the connection; a segment it marks INVALID (out of its window, or with no entry) is not"
                + " NAT'ed, and passes unless a rule drops conntrack state INVALID.", "Linux"
                + " net/netfilter/nf_conntrack_proto_tcp.c tcp_in_window; kubernetes #74839"));
        if (!judged.ruledOut("conntrack-invalid-accepted")) {
            story.add(Statement.likely("Conntrack had no valid entry for the connection when the segment passed (it was"
                    + " marked INVALID, or the entry was gone) and no rule dropped it, so it reached the client with the"
                    + " backend's own address."));
        } else {
            story.add(Statement.likely("The connection's conntrack entry was gone (deleted, or expired) when the segment"
                    + " passed: it left as a new, un-NAT'ed flow."));
        }
        List<Statement> obs = new ArrayList<>();
        if (f.attempts() > 1) {
            obs.add(Statement.seen("the same happened on " + f.attempts() + " connections"));
        }
        List<String> checks = new ArrayList<>();
        if (!judged.answered("conntrack-invalid-accepted")) {
            checks.add("iptables-save | grep -e '--ctstate INVALID'; nft list ruleset | grep 'ct state invalid'   (on the"
                    + " client's node: a rule that drops INVALID, as kube-proxy's -A KUBE-FORWARD ... --ctstate INVALID -j DROP)");
            checks.add("sysctl net.netfilter.nf_conntrack_tcp_be_liberal");
        }
        checks.add("conntrack -L -p tcp --sport " + a.clientPort() + "   (on the client's node, while it happens)");
        return new Explanation(story, obs, checks, List.of(
                new Explanation.Remedy("drop what conntrack marks INVALID on the nodes' forward path: iptables -A FORWARD -m"
                        + " conntrack --ctstate INVALID -j DROP (what kube-proxy adds in KUBE-FORWARD)", "an out-of-window"
                        + " segment is then dropped and retransmitted instead of reset: the connection survives",
                        "conntrack-invalid-accepted"),
                new Explanation.Remedy("or sysctl net.netfilter.nf_conntrack_tcp_be_liberal=1 (kube-proxy's"
                        + " --conntrack-tcp-be-liberal)", "conntrack then tracks out-of-window segments instead of marking"
                        + " them INVALID: it no longer guards against them", "conntrack-invalid-accepted"),
                new Explanation.Remedy("do not delete conntrack entries of live connections (conntrack -D, a flush by a"
                        + " tool on the node)", "none")));
    }
}
