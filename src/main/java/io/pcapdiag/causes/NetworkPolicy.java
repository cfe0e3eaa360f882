package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.PolicyVerdict;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code network-policy}: a NetworkPolicy selects the target pod (or the client pod, for egress) and none
 * of the selecting policies' rules admits the connection: Kubernetes' NetworkPolicy semantics, evaluated on
 * the cluster snapshot.
 */
final class NetworkPolicy implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.NETWORK_POLICY;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.NO_RESPONSE, Pattern.POLICY_REJECT);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<PolicyVerdict> p = context.policy(f.client(), f.examples().get(0).natCopy() != null
                ? f.examples().get(0).natCopy().destination() : f.target());
        if (p.isEmpty()) {
            return CauseVerdict.unknown(cause(), List.of("kubectl get networkpolicy -A   (policies that select "
                    + f.target().address() + "'s pod)"));
        }
        PolicyVerdict v = p.get();
        return new CauseVerdict(cause(), v.admitted() ? Verdict.CONTRADICTED : Verdict.CONFIRMED, List.of(v.fact()),
                v.fix() == null ? List.of() : List.of(v.fix()));
    }
}
