package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.ServiceFacts;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code lb-vip-bound-locally}: the probe's source address is one of the node's own (kube-proxy in IPVS
 * mode binds LoadBalancer IPs to kube-ipvs0), so the kernel drops the probe as a martian. Proved by the
 * node holding the address, or by the cluster listing it as an LB ingress IP without {@code ipMode: Proxy};
 * ruled out by the node facts not listing it, or by {@code ipMode: Proxy} (kube-proxy then does not bind it).
 */
final class LbVipBoundLocally implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.LB_VIP_BOUND_LOCALLY;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.LB_PROBE_DROPPED);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<Reading> local = context.localAddress(f.client());
        Optional<ServiceFacts> lb = context.lbService(f.client());
        String s = f.client().address();
        List<String> fix = List.of(lb.map(m -> "kubectl" + Names.ns(m.ref()) + " patch svc " + m.ref().name()
                        + " --subresource=status --type=merge -p '{\"status\":{\"loadBalancer\":{\"ingress\":[{\"ip\":\"" + s
                        + "\",\"ipMode\":\"Proxy\"}]}}}'   (Kubernetes 1.30+; the cloud controller may set it back: ask the provider for ipMode Proxy)")
                .orElse("have the cloud provider set status.loadBalancer.ingress[].ipMode: Proxy for " + s
                        + " (Kubernetes 1.30+), or run kube-proxy in a mode that does not bind it (iptables, nftables)"));
        List<Fact> facts = new ArrayList<>();
        Causes.addFact(facts, local);
        lb.map(ServiceFacts::fact).ifPresent(facts::add);
        if (local.isPresent() && local.get().value() != null) {
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        if (local.isPresent() || (lb.isPresent() && "Proxy".equals(lb.get().lbIpMode()))) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        if (lb.isPresent()) {
            return new CauseVerdict(cause(), Verdict.CONFIRMED, facts, fix);
        }
        return CauseVerdict.unknown(cause(), fix);
    }
}
