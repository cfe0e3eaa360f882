package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Reading;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code conntrack-insert-race}: two packets of new connections raced to insert the same conntrack entry
 * (after SNAT picked the same source port); the loser is dropped and counted as insert_failed, and its
 * SYN is retransmitted a second later.
 */
final class ConntrackInsertRace implements CauseRule {
    static final String INSERT_FAILED = "nf_conntrack.insert_failed";

    @Override
    public Cause cause() {
        return Cause.CONNTRACK_INSERT_RACE;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.DELAYED_CONNECT, Pattern.DNS_RACE_LOST, Pattern.DNS_NO_RESPONSE);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        List<String> fix = f.pattern().dns()
                ? List.of("kubectl -n NAMESPACE patch deploy NAME --type merge -p '{\"spec\":{\"template\":{\"spec\":"
                        + "{\"dnsConfig\":{\"options\":[{\"name\":\"single-request-reopen\"}]}}}}}'   (A and AAAA one"
                        + " after the other, each from its own socket: no race)")
                : List.of("iptables -t nat -S | grep MASQUERADE   (on the node: masquerade rules should carry"
                + " --random-fully; kube-proxy and most CNIs add it when iptables supports it)");
        Optional<Reading> rise = context.counterRise(INSERT_FAILED);
        if (rise.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        return new CauseVerdict(cause(), ConntrackFull.rose(rise) ? Verdict.CONFIRMED : Verdict.CONTRADICTED,
                List.of(rise.get().fact()), fix);
    }
}
