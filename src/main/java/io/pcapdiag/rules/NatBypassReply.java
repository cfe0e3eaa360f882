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
        story.addAll(a.udp() ? askedAndBypassed(f, a) : dialedAndBypassed(f, a));
        if (a.udp()) {
            story.add(Statement.cited("A connected UDP socket (glibc's resolver connects its socket to the nameserver) takes"
                    + " datagrams only from the address and port it is connected to; one from any other matches no socket"
                    + " and is answered with ICMP port unreachable.", "RFC 1122 4.1.3.1; Linux net/ipv4/udp.c"
                    + " __udp4_lib_lookup, compute_score"));
        } else {
            story.add(Statement.cited("A SYN-ACK from an address and port the client never dialed matches none of its sockets,"
                    + " and a TCP stack answers a segment for no connection with RST.", "RFC 9293 3.10.7.1"));
        }
        story.add(Statement.cited("Conntrack rewrites a reply's source back to the Service address only if the reply passes"
                + " through it; a frame bridged between two ports of one bridge reaches iptables only with"
                + " bridge-nf-call-iptables=1.", "Linux net/bridge/br_netfilter_hooks.c"));
        if (!judged.ruledOut("bridge-nf-call-off")) {
            story.add(Statement.likely("This is a same-node Pod to Service call: the backend sits on the same bridge as the"
                    + " client, its " + (a.udp() ? "answer" : "SYN-ACK") + " was switched at layer 2 and conntrack never saw it."));
        }
        List<Statement> obs = new ArrayList<>();
        String reply = a.udp() ? "answer" : "SYN-ACK";
        if (f.attempts() > 1) {
            obs.add(Statement.seen((a.udp() ? "the client refused the unexpected answer with ICMP port unreachable in "
                    : "the client reset the unexpected SYN-ACK in ") + f.clientResets() + " of " + f.attempts()
                    + (a.udp() ? " queries" : " attempts")));
        }
        Sighting synAck = a.otherSynAck();
        if (synAck.hasSrcMac) {
            Sighting syn = a.syn();
            if (syn.hasDstMac) {
                String mac = "the " + reply + " came from MAC " + Ip.mac(synAck.srcMac) + " while the "
                        + (a.udp() ? "query" : "SYN") + " went to MAC " + Ip.mac(syn.dstMac)
                        + " (the gateway): the reply was switched, not routed";
                obs.add(Statement.seen(mac, syn, synAck));
            } else {
                obs.add(Statement.seen("the " + reply + " came from MAC " + Ip.mac(synAck.srcMac), synAck));
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

    /** A bypassed DNS answer (or UDP reply): the query, its DNAT'ed copy, the answer from the backend, the refusal. */
    private static List<Statement> askedAndBypassed(Finding f, Attempt a) {
        List<Statement> story = new ArrayList<>();
        String what = a.query() == null ? "a UDP datagram" : a.query().question();
        story.add(Statement.seen(f.client() + " asked " + f.target() + " " + what + ".", a.syn()));
        if (a.natCopy() != null) {
            story.add(Statement.seen("DNAT sent it on to " + a.natCopy().destination() + ".", a.natCopy()));
        }
        story.add(Statement.seen("The answer came back from " + f.responder() + ", not from " + f.target() + ".",
                a.otherSynAck()));
        if (a.clientReset() != null) {
            story.add(Statement.seen("The client answered it with ICMP port unreachable.", a.clientReset()));
        }
        if (f.retransmissions() > 0) {
            story.add(Statement.seen("The client asked again " + Words.times(f.retransmissions()) + "."));
        }
        return story;
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
