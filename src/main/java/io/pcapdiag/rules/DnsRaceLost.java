package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dns-race-lost}: two queries from one client socket within 10 ms (glibc's parallel A and AAAA), one answered
 * at once, the other unanswered and asked again (docs/design.md). One rule per outcome, as {@link DnsNoResponse}.
 */
final class DnsRaceLost implements AttemptRule {
    private final Outcome outcome;

    DnsRaceLost(Outcome outcome) {
        this.outcome = outcome;
    }

    @Override
    public Pattern pattern() {
        return Pattern.DNS_RACE_LOST;
    }

    @Override
    public Outcome outcome() {
        return outcome;
    }

    @Override
    public boolean matches(Attempt a) {
        return a.lostRace();
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        Attempt won = a.sibling();
        List<Statement> story = new ArrayList<>(DnsRules.asked(f, a));
        long apart = Math.abs(a.synNanos() - won.synNanos());
        story.add(Statement.seen("The same socket sent " + won.query().question() + " " + Words.millis(apart)
                + (won.synNanos() < a.synNanos() ? " before it" : " after it") + ", and that one was answered at once.",
                won.syn(), won.targetAnswer()));
        story.add(DnsRules.resend(f, a));
        story.addAll(DnsRules.resolverTimeout(a));
        story.add(Statement.cited("The two datagrams of one socket are one conntrack flow; sent together, they can race"
                + " through DNAT on two CPUs, each creating the flow's entry. The entry inserted second clashes: a kernel"
                + " that cannot resolve the clash drops that datagram and counts it as insert_failed.",
                "Linux net/netfilter/nf_conntrack_core.c __nf_conntrack_confirm, nf_ct_resolve_clash"));
        if (!judged.ruledOut("conntrack-insert-race")) {
            story.add(Statement.likely("The lost query was the loser of that race: its conntrack entry was never inserted."));
        }
        List<String> checks = new ArrayList<>();
        if (!judged.answered("conntrack-insert-race")) {
            checks.add("conntrack -S   (on the node, twice a minute apart: insert_failed rising?)");
        }
        checks.add("uname -r   (kernels from 5.0 resolve most clashes of NAT'ed UDP instead of dropping)");
        return new Explanation(story, List.of(), checks, List.of(
                new Explanation.Remedy("add `options single-request-reopen` (or single-request) to the pods' dnsConfig",
                        "A and AAAA are then sent one after the other: a little slower when nothing is lost",
                        "conntrack-insert-race"),
                new Explanation.Remedy("run NodeLocal DNSCache: pods query a node-local address over a path without DNAT",
                        "one more component per node", "conntrack-insert-race"),
                new Explanation.Remedy("move the nodes to a kernel of 5.x or later, where conntrack resolves the clash",
                        "a node upgrade", "conntrack-insert-race")));
    }
}
