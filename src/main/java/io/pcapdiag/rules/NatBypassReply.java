package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code nat-bypass-reply}: SYN to V:vp; SYN-ACK with ack = ISN+1 from B:bp != V:vp and none from V:vp
 * (the tracker's BYPASSED outcome). The reply skipped conntrack's reverse NAT.
 */
final class NatBypassReply implements AttemptRule {
    @Override
    public Pattern pattern() {
        return Pattern.NAT_BYPASS_REPLY;
    }

    @Override
    public Outcome outcome() {
        return Outcome.BYPASSED;
    }

    @Override
    public boolean matches(Attempt a) {
        return true;
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>();
        story.addAll(dialedAndBypassed(f, a));
        story.add(Statement.cited("A SYN-ACK from an address and port the client never dialed matches none of its sockets,"
                + " and a TCP stack answers a segment for no connection with RST.", "RFC 9293 3.10.7.1"));
        story.add(Statement.cited("Conntrack rewrites a reply's source back to the Service address only if the reply passes"
                + " through it; a frame bridged between two ports of one bridge reaches iptables only with"
                + " bridge-nf-call-iptables=1.", "Linux net/bridge/br_netfilter_hooks.c"));
        if (!judged.ruledOut("bridge-nf-call-off")) {
            story.add(Statement.likely("This is a same-node Pod to Service call: the backend sits on the same bridge as the"
                    + " client, its SYN-ACK was switched at layer 2 and conntrack never saw it."));
        }
        List<Statement> obs = new ArrayList<>();
        if (f.attempts() > 1) {
            obs.add(Statement.seen("the client reset the unexpected SYN-ACK in " + f.clientResets() + " of "
                    + f.attempts() + " attempts"));
        }
        Sighting synAck = a.otherSynAck();
        if (synAck.hasSrcMac) {
            String mac = "the SYN-ACK came from MAC " + Ip.mac(synAck.srcMac) + ", not the gateway's";
            Sighting syn = a.syn();
            if (syn.hasDstMac) {
                mac = "the SYN-ACK came from MAC " + Ip.mac(synAck.srcMac) + " while the SYN went to MAC "
                        + Ip.mac(syn.dstMac) + " (the gateway): the reply was switched, not routed";
                obs.add(Statement.seen(mac, syn, synAck));
            } else {
                obs.add(Statement.seen("the SYN-ACK came from MAC " + Ip.mac(synAck.srcMac), synAck));
            }
        }
        boolean v6 = !f.client().isV4();
        String table = v6 ? "ip6tables" : "iptables";
        return new Explanation(story, obs, judged.answered("bridge-nf-call-off") ? List.of() : List.of(
                "sysctl net.bridge.bridge-nf-call-" + table + "   (on the node: 1 is needed; no such key: br_netfilter is not loaded)"),
                List.of(
                new Explanation.Remedy("load br_netfilter and set net.bridge.bridge-nf-call-" + table
                        + "=1 on every node (kubeadm's preflight checks it)",
                        "bridged traffic then traverses iptables: a small CPU cost on every bridged packet", "bridge-nf-call-off"),
                new Explanation.Remedy("enable hairpin mode on the bridge ports (kubelet --hairpin-mode=hairpin-veth, CNI bridge plugin hairpinMode: true)",
                        "needed as well when a pod reaches itself through its own Service"),
                new Explanation.Remedy("set kube-proxy masqueradeAll: true",
                        "every Service connection is SNAT'ed, so backends no longer see the client pod's IP")));
    }

    /** The packets' story of a bypassed reply, from the SYN to the client's reset and retries. */
    static List<Statement> dialedAndBypassed(Finding f, Attempt a) {
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " dialed " + f.target() + ".", a.syn()));
        if (a.natCopy() != null) {
            story.add(Statement.seen("DNAT sent the SYN on to " + a.natCopy().destination() + ".", a.natCopy()));
        }
        story.add(Statement.seen("The SYN-ACK came back from " + f.responder() + ", not from " + f.target() + ".",
                a.otherSynAck()));
        if (a.clientReset() != null) {
            story.add(Statement.seen("The client answered it with RST.", a.clientReset()));
        }
        if (f.retransmissions() > 0) {
            story.add(Statement.seen("The client retransmitted its SYN " + Words.times(f.retransmissions()) + "."));
        }
        return story;
    }
}
