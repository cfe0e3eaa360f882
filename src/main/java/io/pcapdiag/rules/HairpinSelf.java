package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.track.Attempt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code hairpin-self}: client S dials V:p and gets nothing, or a bypassed reply from its own address,
 * and S is itself a backend of V:p: the capture shows V:p DNAT'ed to S, or the cluster lists S as an
 * endpoint of V's Service. A bypassed reply from another backend is {@code nat-bypass-reply}, whoever
 * else backs the Service.
 */
final class HairpinSelf implements GroupRule {
    @Override
    public Pattern pattern() {
        return Pattern.HAIRPIN_SELF;
    }

    /** Asked for every finding at the end of a run: made once. */
    private static final Set<Pattern> REFINES = Set.of(Pattern.NO_RESPONSE, Pattern.NAT_BYPASS_REPLY);

    @Override
    public Set<Pattern> refines() {
        return REFINES;
    }

    @Override
    public Optional<List<Fact>> matches(Finding f, Context context) {
        if (f.pattern() == Pattern.NAT_BYPASS_REPLY && !f.responder().sameAddress(f.client())) {
            return Optional.empty();
        }
        return context.backendOf(f.client(), f.target()).map(List::of);
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>();
        if (f.responder() != null) {
            story.addAll(NatBypassReply.dialedAndBypassed(f, a));
        } else {
            story.add(Statement.seen(f.client() + " made " + Words.count(f.attempts(), "attempt", "attempts") + " to reach "
                    + f.target() + (f.retransmissions() > 0 ? ", retransmitting its SYN " + Words.times(f.retransmissions()) : "")
                    + ", and nothing came back.", a.syn()));
            if (a.natCopy() != null) {
                story.add(Statement.seen("DNAT sent the SYN on to " + a.natCopy().destination() + ".", a.natCopy()));
            }
        }
        for (Fact fact : f.facts()) {
            story.add(Statement.fact(fact));
        }
        story.add(Statement.cited("A Linux bridge does not send a frame back out of the port it arrived on unless that"
                + " port is in hairpin mode.", "Linux net/bridge/br_forward.c, should_deliver()"));
        if (!judged.ruledOut("hairpin-mode-off")) {
            story.add(Statement.likely("The pod reached itself through its own Service: DNAT picked the pod itself as the"
                    + " backend, the SYN had to leave through the bridge port it came in on, and the bridge dropped it."));
        }
        return new Explanation(story, List.of(), judged.answered("hairpin-mode-off") ? List.of() : List.of(
                "bridge -d link show | grep -B1 hairpin   (on the node: hairpin off on the client pod's veth?)"),
                List.of(
                new Explanation.Remedy("enable hairpin mode on the pods' bridge ports: kubelet --hairpin-mode=hairpin-veth,"
                        + " or \"hairpinMode\": true in the CNI bridge plugin's configuration",
                        "flooded frames (broadcast, multicast, unknown unicast) are reflected to their sender too: IPv6"
                        + " duplicate address detection in the pod can then see its own probe and fail", "hairpin-mode-off"),
                new Explanation.Remedy("where the pod needs its own service, let it call itself on localhost",
                        "bypasses the Service: no load balancing to the other backends for those calls")));
    }
}
