package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.HandshakeTracker;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dns-no-response}: a DNS query whose send went unanswered (the client asked again, or the capture went on
 * {@link HandshakeTracker#DNS_LINGER_NANOS} past it) and that is no {@code dns-race-lost}. One rule per outcome: a
 * query answered only after it was asked again is ANSWERED, one never answered UNANSWERED.
 */
final class DnsNoResponse implements AttemptRule {
    private final Outcome outcome;

    DnsNoResponse(Outcome outcome) {
        this.outcome = outcome;
    }

    @Override
    public Pattern pattern() {
        return Pattern.DNS_NO_RESPONSE;
    }

    @Override
    public Outcome outcome() {
        return outcome;
    }

    @Override
    public boolean matches(Attempt a) {
        return a.query() != null && (a.outcome() == Outcome.UNANSWERED || a.delayed());
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>(DnsRules.asked(f, a));
        if (a.natCopy() != null) {
            story.add(Statement.seen("DNAT sent it on to " + a.natCopy().destination() + ", and nothing came back from"
                    + " there.", a.natCopy()));
        }
        story.add(DnsRules.resend(f, a));
        story.addAll(DnsRules.resolverTimeout(a));
        List<String> drops = new ArrayList<>();
        if (!judged.ruledOut("stale-udp-conntrack")) {
            drops.add("a conntrack entry still DNAT'ing to a DNS pod that is gone");
        }
        if (!judged.ruledOut("network-policy")) {
            drops.add("a NetworkPolicy dropping port 53");
        }
        if (!judged.ruledOut("service-no-endpoints")) {
            drops.add("a DNS Service with no ready endpoint");
        }
        if (!judged.ruledOut("conntrack-insert-race")) {
            drops.add("a conntrack insert race");
        }
        drops.add("an overloaded DNS pod or upstream");
        story.add(Statement.likely("The query or its answer was dropped on the way: " + Words.alternatives(drops) + "."));
        return new Explanation(story, List.of(), DnsRules.checks(f, judged), DnsRules.remedies(f));
    }
}
