package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Ref;
import io.pcapdiag.context.ServiceFacts;
import io.pcapdiag.context.Source;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code etp-local-no-local-endpoint}: the Service has {@code externalTrafficPolicy: Local} and no ready
 * endpoint on the capture's node. ETP governs traffic to NodePorts, LoadBalancer and external IPs only:
 * through the ClusterIP it does not apply.
 */
final class EtpLocalNoLocalEndpoint implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.ETP_LOCAL_NO_LOCAL_ENDPOINT;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.VIP_LOCAL_REJECT, Pattern.NO_RESPONSE);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<ServiceFacts> found = context.service(f.target());
        Optional<Ref> ref = found.map(ServiceFacts::ref);
        List<String> fix = List.of("kubectl" + Names.ns(ref.orElse(null)) + " patch svc "
                + ref.map(Ref::name).orElse("<service>") + " -p '{\"spec\":{\"externalTrafficPolicy\":\"Cluster\"}}'");
        if (found.isEmpty()) {
            Optional<Fact> pod = Names.podNotService(f.target(), context);
            if (pod.isPresent()) {
                return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(pod.get()), List.of());
            }
            return CauseVerdict.unknown(cause(), fix);
        }
        ServiceFacts s = found.get();
        String svc = s.ref().text();
        if (!s.portInService()) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(s.fact()), fix);
        }
        if (s.matchedBy().equals("ClusterIP")) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(s.fact(), new Fact(Source.CLUSTER,
                    "externalTrafficPolicy does not apply to a ClusterIP: " + f.target() + " is " + svc + "'s ClusterIP")), fix);
        }
        Fact etp = new Fact(Source.CLUSTER, svc + " has externalTrafficPolicy: " + s.externalTrafficPolicy());
        if (!"Local".equals(s.externalTrafficPolicy())) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(s.fact(), etp), fix);
        }
        Optional<Reading> node = context.captureNode();
        if (node.isEmpty()) {
            return new CauseVerdict(cause(), Verdict.CONSISTENT, List.of(s.fact(), etp, new Fact(Source.CLUSTER,
                    "which node the capture was taken on is unknown (--node NAME or --node-facts tell it)")), fix);
        }
        String n = node.get().value();
        int here = s.readyOn(n);
        if (here > 0) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(s.fact(), etp, node.get().fact(),
                    new Fact(Source.CLUSTER, svc + " has " + here + " ready endpoint" + (here == 1 ? "" : "s") + " on " + n)), fix);
        }
        return new CauseVerdict(cause(), Verdict.CONFIRMED, List.of(s.fact(), etp, node.get().fact(),
                new Fact(Source.CLUSTER, svc + " has no ready endpoint on " + n + Names.elsewhere(s, n))), fix);
    }
}
