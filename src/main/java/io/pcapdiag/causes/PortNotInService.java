package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.ServiceFacts;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code port-not-in-service}: the address dialed is a Service's, the port none of its ports. */
final class PortNotInService implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.PORT_NOT_IN_SERVICE;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.VIP_LOCAL_REJECT);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<ServiceFacts> found = context.service(f.target());
        if (found.isEmpty()) {
            return CauseVerdict.unknown(cause(), List.of("kubectl get svc -A -o wide | grep -w " + f.target().address()
                    + "   (the Service's ports)"));
        }
        ServiceFacts s = found.get();
        List<String> fix = List.of("kubectl" + Names.ns(s.ref()) + " get svc " + s.ref().name()
                + " -o jsonpath='{range .spec.ports[*]}{.name} {.port}{\"\\n\"}{end}'   (dial one of these ports)");
        return new CauseVerdict(cause(), s.portInService() ? Verdict.CONTRADICTED : Verdict.CONFIRMED, List.of(s.fact()), fix);
    }
}
