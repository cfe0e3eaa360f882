package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.ServiceFacts;
import io.pcapdiag.context.Source;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code service-no-endpoints}: the Service has no ready endpoint anywhere. kube-proxy then rejects (IPVS:
 * the VIP itself answers ICMP; iptables: a REJECT rule on the path) or drops.
 */
final class ServiceNoEndpoints implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.SERVICE_NO_ENDPOINTS;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.VIP_LOCAL_REJECT, Pattern.NO_RESPONSE, Pattern.ICMP_UNREACHABLE, Pattern.DNS_NO_RESPONSE,
                Pattern.UDP_UNREACHABLE);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<ServiceFacts> found = context.service(f.target(), f.examples().get(0).udp() ? "UDP" : "TCP");
        if (found.isEmpty()) {
            Optional<Fact> pod = Names.podNotService(f.target(), context);
            if (pod.isPresent()) {
                return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(pod.get()), List.of());
            }
            return CauseVerdict.unknown(cause(), List.of("kubectl get endpointslices -A -o wide | grep -w " + f.target().port()
                    + "   (find the Service of " + f.target() + " and its ready endpoints)"));
        }
        ServiceFacts s = found.get();
        String svc = s.ref().text();
        List<String> fix = List.of(s.selector().isEmpty()
                ? "kubectl" + Names.ns(s.ref()) + " get endpointslices -l kubernetes.io/service-name=" + s.ref().name() + " -o yaml"
                        + "   (a Service without selector: its EndpointSlices are written by hand or by a controller)"
                : "kubectl" + Names.ns(s.ref()) + " get pods -l " + Names.selector(s.selector()) + " -o wide"
                        + "   (the pods the Service selects: make one ready, or fix the selector)");
        if (!s.portInService()) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(s.fact()), fix);
        }
        if (s.readyEndpoints() > 0) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(s.fact(), new Fact(Source.CLUSTER,
                    svc + " has " + s.readyEndpoints() + " ready endpoint" + (s.readyEndpoints() == 1 ? "" : "s"))), fix);
        }
        return new CauseVerdict(cause(), Verdict.CONFIRMED, List.of(s.fact(), new Fact(Source.CLUSTER,
                svc + " has no ready endpoint on any node")), fix);
    }
}
