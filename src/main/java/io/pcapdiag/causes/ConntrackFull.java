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
 * {@code conntrack-full}: the node's conntrack table is full, so new connections are dropped (the kernel
 * logs "nf_conntrack: table full, dropping packet"): count at max, or the drop / early_drop statistics rising.
 */
final class ConntrackFull implements CauseRule {
    static final String COUNT = "net.netfilter.nf_conntrack_count";
    static final String MAX = "net.netfilter.nf_conntrack_max";

    @Override
    public Cause cause() {
        return Cause.CONNTRACK_FULL;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.NO_RESPONSE, Pattern.DELAYED_CONNECT);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<Reading> count = context.sysctl(COUNT);
        Optional<Reading> max = context.sysctl(MAX);
        Optional<Reading> drop = context.counterRise("nf_conntrack.drop");
        Optional<Reading> early = context.counterRise("nf_conntrack.early_drop");
        long maxValue = number(max, -1);
        List<String> fix = List.of("sysctl -w " + MAX + "=" + (maxValue > 0 ? 2 * maxValue : 262144)
                + "   (and kube-proxy --conntrack-max-per-core, which sets it at start)");
        List<Fact> facts = new ArrayList<>();
        Causes.addFact(facts, count);
        Causes.addFact(facts, max);
        Causes.addFact(facts, drop);
        Causes.addFact(facts, early);
        if (facts.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        long countValue = number(count, -1);
        boolean full = countValue >= 0 && maxValue > 0 && countValue >= maxValue;
        boolean dropping = rose(drop) || rose(early);
        if (full || dropping) {
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        boolean ruledOut = countValue >= 0 && maxValue > 0 && (drop.isPresent() || early.isPresent());
        return new CauseVerdict(cause(), ruledOut ? Verdict.CONTRADICTED : Verdict.CONSISTENT, facts, fix);
    }

    static boolean rose(Optional<Reading> r) {
        return number(r, 0) > 0;
    }

    /** The reading's value as a number, or {@code otherwise} when there is no reading or its value is no number. */
    static long number(Optional<Reading> r, long otherwise) {
        return r.map(Reading::value).map(ConntrackFull::number).orElse(otherwise);
    }

    static Long number(String s) {
        try {
            return s == null ? null : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
