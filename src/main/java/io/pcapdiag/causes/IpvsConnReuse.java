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
 * {@code ipvs-conn-reuse}: with kube-proxy in IPVS mode and {@code net.ipv4.vs.conn_reuse_mode=1}, IPVS
 * (kernels before 5.9) drops the first SYN of a connection that reuses the source port of one still in
 * its table, and the client retransmits it a second later: a delay of about 1 s.
 */
final class IpvsConnReuse implements CauseRule {
    static final String REUSE = "net.ipv4.vs.conn_reuse_mode";
    /** The retransmission that follows such a drop comes after Linux's initial RTO: about a second. */
    private static final long ABOUT_ONE_SECOND_LO = 800_000_000L;
    private static final long ABOUT_ONE_SECOND_HI = 1_500_000_000L;

    @Override
    public Cause cause() {
        return Cause.IPVS_CONN_REUSE;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.DELAYED_CONNECT);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        List<String> fix = List.of("sysctl -w " + REUSE + "=0   (on every node; or run a kernel >= 5.9, where IPVS no"
                + " longer drops the SYN)");
        Optional<Reading> mode = context.proxyMode();
        Optional<Reading> reuse = context.sysctl(REUSE);
        List<Fact> facts = new ArrayList<>();
        Causes.addFact(facts, mode);
        Causes.addFact(facts, reuse);
        boolean second = f.minDelayNanos() >= ABOUT_ONE_SECOND_LO && f.maxDelayNanos() <= ABOUT_ONE_SECOND_HI;
        if (mode.isPresent() && !"ipvs".equals(mode.get().value())) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        if (reuse.isPresent() && !"1".equals(reuse.get().value())) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        if (!second) {
            facts.add(Fact.capture("the SYN that was answered left " + (f.minDelayNanos() / 1_000_000L) + " ms after the"
                    + " first, not about a second as after an IPVS reuse drop"));
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        if (mode.isPresent() && reuse.isPresent()) {
            facts.add(Fact.capture("the SYN that was answered left about a second after the first"));
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        return facts.isEmpty() ? CauseVerdict.unknown(cause(), fix) : new CauseVerdict(cause(), Verdict.CONSISTENT, facts, fix);
    }
}
