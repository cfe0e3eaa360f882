package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Reading;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bridge-nf-call-off}: bridged IPv4 (IPv6) traffic skips iptables (ip6tables) on the node, so a
 * reply switched between two ports of the pod bridge never meets conntrack's reverse NAT:
 * {@code net.bridge.bridge-nf-call-iptables = 0}, or br_netfilter not loaded at all.
 */
final class BridgeNfCallOff implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.BRIDGE_NF_CALL_OFF;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.NAT_BYPASS_REPLY);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        String key = f.client().isV4() ? "net.bridge.bridge-nf-call-iptables" : "net.bridge.bridge-nf-call-ip6tables";
        List<String> fix = List.of("modprobe br_netfilter && sysctl -w " + key + "=1",
                "echo " + key + "=1 > /etc/sysctl.d/90-br-netfilter.conf   (keeps it across reboots)");
        Optional<Reading> r = context.bridgedToIptables(f.client(), f.examples().get(0).syn().ifIndex);
        if (r.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        boolean off = !"1".equals(r.get().value());
        return new CauseVerdict(cause(), off ? Verdict.CONFIRMED : Verdict.CONTRADICTED, List.of(r.get().fact()), fix);
    }
}
