package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code dns-search-expansion}: a name answered NOERROR only after at least {@link #MIN_MISSES} NXDOMAIN answers for
 * it with search suffixes appended, the delay they cost at least {@link #MIN_DELAY_NANOS} (severity info).
 */
final class DnsSearchExpansion implements AttemptRule {
    static final int MIN_MISSES = 2;
    static final long MIN_DELAY_NANOS = 10_000_000L;

    @Override
    public Pattern pattern() {
        return Pattern.DNS_SEARCH_EXPANSION;
    }

    @Override
    public Outcome outcome() {
        return Outcome.ANSWERED;
    }

    @Override
    public boolean matches(Attempt a) {
        return a.query() != null && a.rcode() == 0 && a.searchMisses() >= MIN_MISSES
                && a.searchDelayNanos() >= MIN_DELAY_NANOS;
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " resolved " + a.query().question() + " from " + f.target() + " only after "
                + Words.count(a.searchMisses(), "NXDOMAIN answer", "NXDOMAIN answers") + " for the same name with search"
                + " suffixes appended: the search list cost " + Words.millis(a.searchDelayNanos()) + ".",
                a.syn(), a.targetAnswer()));
        story.add(Statement.cited("A resolver tries a name with fewer dots than ndots with each search domain first; a"
                + " ClusterFirst pod gets ndots:5 and three cluster search domains, so a name like api.example.com costs"
                + " three failed lookups (six with A and AAAA) before the one that answers.",
                "resolv.conf(5) ndots; Kubernetes DNS for Services and Pods, Pod's DNS Config"));
        if (!judged.ruledOut("dns-ndots")) {
            story.add(Statement.likely("The client pod runs with the default ndots:5 and dials an external name without"
                    + " a trailing dot."));
        }
        List<String> checks = new ArrayList<>();
        if (!judged.answered("dns-ndots")) {
            checks.add("kubectl exec POD -- cat /etc/resolv.conf   (ndots and the search list)");
        }
        return new Explanation(story, List.of(), checks, List.of(
                new Explanation.Remedy("set the pod's dnsConfig.options ndots to 1 or 2 (spec.dnsConfig.options: [{name:"
                        + " ndots, value: \"2\"}])", "short in-cluster names (svc.ns) still resolve; a bare Service"
                        + " name needs ndots >= 1", "dns-ndots"),
                new Explanation.Remedy("dial external names fully qualified, with a trailing dot (api.example.com.)",
                        "a change in each client's configuration")));
    }
}
