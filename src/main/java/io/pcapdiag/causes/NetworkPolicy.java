package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.PolicyVerdict;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code network-policy}: a NetworkPolicy selects the target pod (or the client pod, for egress) and none
 * of the selecting policies' rules admits the connection: Kubernetes' NetworkPolicy semantics, evaluated on
 * the cluster snapshot (a pod is isolated for a direction once any policy selects it for that direction, and then only
 * the union of those policies' rules admits: Kubernetes' NetworkPolicy API, pkg/apis/networking/types.go). Its fix
 * opens isolation someone set on purpose, so it names the blocking policies first.
 */
final class NetworkPolicy implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.NETWORK_POLICY;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.NO_RESPONSE, Pattern.POLICY_REJECT, Pattern.DNS_NO_RESPONSE, Pattern.UDP_UNREACHABLE);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        io.pcapdiag.track.Attempt first = f.examples().get(0);
        Optional<PolicyVerdict> p = context.policy(f.client(), first.dnatDestination() != null ? first.dnatDestination()
                : f.target(), first.udp() ? "UDP" : "TCP");
        if (p.isEmpty()) {
            return CauseVerdict.unknown(cause(), List.of("kubectl get networkpolicy -A   (policies that select "
                    + f.target().address() + "'s pod)"));
        }
        PolicyVerdict v = p.get();
        if (v.admitted()) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(v.fact()), List.of());
        }
        return new CauseVerdict(cause(), Verdict.CONFIRMED, List.of(v.fact()), fixes(v));
    }

    /**
     * Admitting the client opens isolation someone set on purpose: the fix says so and names the policies that block
     * first, with the command that shows each, before the command that admits this one client.
     */
    static List<String> fixes(PolicyVerdict v) {
        List<String> out = new ArrayList<>();
        if (!v.blocking().isEmpty()) {
            out.add("this loosens isolation set on purpose by " + (v.blocking().size() == 1 ? "NetworkPolicy " : "NetworkPolicies ")
                    + String.join(", ", v.blocking()) + ": read " + (v.blocking().size() == 1 ? "it" : "them")
                    + " and ask the owner first (" + v.blocking().stream().map(NetworkPolicy::show)
                    .collect(java.util.stream.Collectors.joining("; ")) + ")");
        }
        if (v.fix() != null) {
            out.add(v.fix() + "   (admits this client only" + (v.blocking().isEmpty() ? ": it loosens isolation set on purpose" : "")
                    + ")");
        }
        return out;
    }

    /** {@code kubectl -n ns get networkpolicy name -o yaml} for {@code ns/name}. */
    private static String show(String policy) {
        int slash = policy.indexOf('/');
        return "kubectl -n " + policy.substring(0, slash) + " get networkpolicy " + policy.substring(slash + 1) + " -o yaml";
    }
}
