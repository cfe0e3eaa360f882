package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Reading;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code hairpin-mode-off}: the bridge port of the client pod is not in hairpin mode, so the bridge will not
 * send its SYN, DNAT'ed back to the pod itself, out of the port it came in on.
 */
final class HairpinModeOff implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.HAIRPIN_MODE_OFF;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.HAIRPIN_SELF);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<Reading> r = context.hairpin(f.client(), f.examples().get(0).syn().ifIndex);
        String port = r.map(Reading::subject).orElse("<the pod's veth>");
        List<String> fix = List.of("bridge link set dev " + port + " hairpin on   (now, for this pod)",
                "kubelet --hairpin-mode=hairpin-veth, or \"hairpinMode\": true in the CNI bridge configuration   (every new pod)");
        if (r.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        return new CauseVerdict(cause(), "0".equals(r.get().value()) ? Verdict.CONFIRMED : Verdict.CONTRADICTED,
                List.of(r.get().fact()), fix);
    }
}
