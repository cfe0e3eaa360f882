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
import java.util.regex.Matcher;

/**
 * {@code ipvs-conn-reuse}: with kube-proxy in IPVS mode and {@code net.ipv4.vs.conn_reuse_mode=1}, IPVS on kernels
 * before 5.9 drops the first SYN of a connection that reuses the source port of one still in its table
 * (net/netfilter/ipvs/ip_vs_core.c, ip_vs_in: "drop first packet to redirect conntrack"), and the client retransmits
 * it a second later: a delay of about 1 s. From 5.9 on IPVS reuses the unconfirmed conntrack entry instead of
 * dropping, which is why kube-proxy leaves conn_reuse_mode alone there (pkg/proxy/ipvs/proxier.go,
 * connReuseMinSupportedKernelVersion "5.9"). In iptables and nftables mode there is no IPVS on the path.
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
        Optional<Reading> kernel = context.kernelRelease();
        Boolean fixedKernel = kernel.map(k -> atLeast(k.value(), 5, 9)).orElse(null);
        if (Boolean.TRUE.equals(fixedKernel)) {
            facts.add(kernel.get().fact());
            facts.add(new Fact(kernel.get().fact().source(), "IPVS no longer drops the first SYN of a reused connection from"
                    + " Linux 5.9 on"));
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        Causes.addFact(facts, kernel);
        if (!second) {
            facts.add(Fact.capture("the SYN that was answered left " + (f.minDelayNanos() / 1_000_000L) + " ms after the"
                    + " first, not about a second as after an IPVS reuse drop"));
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        if (mode.isPresent() && reuse.isPresent() && Boolean.FALSE.equals(fixedKernel)) {
            facts.add(Fact.capture("the SYN that was answered left about a second after the first"));
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        return facts.isEmpty() ? CauseVerdict.unknown(cause(), fix) : new CauseVerdict(cause(), Verdict.CONSISTENT, facts, fix);
    }

    private static final java.util.regex.Pattern KERNEL_VERSION = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)");

    /** Whether a kernel release ({@code 6.1.0-18-amd64}) is at least major.minor; null when it does not start with a version. */
    static Boolean atLeast(String release, int major, int minor) {
        Matcher m = KERNEL_VERSION.matcher(release == null ? "" : release);
        if (!m.find()) {
            return null;
        }
        int a = Integer.parseInt(m.group(1));
        int b = Integer.parseInt(m.group(2));
        return a > major || (a == major && b >= minor);
    }
}
