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
 * {@code rp-filter}: strict reverse-path filtering drops a SYN that arrives on an interface the route back
 * to its source does not use. The effective value for an interface is max(conf.all, conf.IFACE)
 * (Documentation/networking/ip-sysctl.rst); 1 is strict. The kernel counts the drops as
 * TcpExtIPReversePathFilter.
 */
final class RpFilter implements CauseRule {
    static final String DROPS = "TcpExtIPReversePathFilter";

    @Override
    public Cause cause() {
        return Cause.RP_FILTER;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.NO_RESPONSE);
    }

    /** IPv4 only: IPv6 has no rp_filter sysctl (ip6tables' rpfilter match does that job). */
    @Override
    public boolean applies(Finding f) {
        return f.client().isV4();
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<String> iface = context.interfaceName(f.examples().get(0).syn().ifIndex);
        String name = iface.orElse("<interface>");
        List<String> fix = List.of("sysctl -w net.ipv4.conf.all.rp_filter=2 net.ipv4.conf." + name + ".rp_filter=2   (loose mode)");
        Optional<Reading> drops = context.counterRise(DROPS);
        Optional<Reading> all = context.sysctl("net.ipv4.conf.all.rp_filter");
        Optional<Reading> own = iface.flatMap(i -> context.sysctl("net.ipv4.conf." + i + ".rp_filter"));
        List<Fact> facts = new ArrayList<>();
        Causes.addFact(facts, drops);
        Causes.addFact(facts, all);
        Causes.addFact(facts, own);
        if (facts.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        if (ConntrackFull.rose(drops)) {
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        long effective = Math.max(ConntrackFull.number(all, 0), ConntrackFull.number(own, 0));
        if (effective == 1 && own.isPresent()) {
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        boolean ruledOut = drops.isPresent() && (own.isPresent() || all.isPresent()) && effective != 1;
        return new CauseVerdict(cause(), ruledOut ? Verdict.CONTRADICTED : Verdict.CONSISTENT, facts, fix);
    }
}
