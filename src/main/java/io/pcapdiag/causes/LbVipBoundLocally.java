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
 * {@code lb-vip-bound-locally}: the probe's source address is one of the node's own (kube-proxy in IPVS mode binds
 * LoadBalancer IPs with ipMode VIP to kube-ipvs0), so fib_validate_source (net/ipv4/fib_frontend.c) rejects the probe
 * as a martian source before NAT or a socket sees it, unless accept_local is on (conf.all or conf.DEV). Proved by the
 * node holding the address with accept_local off, or by the cluster listing it as an LB ingress IP without
 * {@code ipMode: Proxy} while kube-proxy runs in IPVS mode; ruled out by the node facts not listing it, by
 * accept_local, by {@code ipMode: Proxy}, or by kube-proxy in iptables or nftables mode, which bind no LB IP to an
 * interface (pkg/proxy/ipvs binds them to kube-ipvs0; pkg/proxy/iptables and pkg/proxy/nftables only write rules).
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
        Optional<Reading> mode = context.proxyMode();
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
            Optional<Reading> accept = context.acceptLocal(RpFilter.ingress(f.examples().get(0), context)
                    .map(RpFilter.Ingress::iface).orElse(null));
            Causes.addFact(facts, accept);
            if (accept.isPresent() && "1".equals(accept.get().value())) {
                return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
            }
            return new CauseVerdict(cause(), accept.isPresent() ? Verdict.CONFIRMED : Verdict.CONSISTENT, facts, fix);
        }
        if (local.isPresent() || (lb.isPresent() && "Proxy".equals(lb.get().lbIpMode()))) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, facts, fix);
        }
        if (lb.isPresent()) {
            Causes.addFact(facts, mode);
            if (mode.isEmpty()) {
                return new CauseVerdict(cause(), Verdict.CONSISTENT, facts, fix);
            }
            return new CauseVerdict(cause(), "ipvs".equals(mode.get().value()) ? Verdict.CONFIRMED : Verdict.CONTRADICTED, facts, fix);
        }
        return CauseVerdict.unknown(cause(), fix);
    }
}
