package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.PodDnsFacts;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code dns-ndots}: the kubelet writes {@code options ndots:5} into a ClusterFirst pod's resolv.conf unless its
 * dnsConfig sets another (pkg/kubelet/network/dns), so a name with fewer than 5 dots goes through the search list
 * first. Confirmed when the cluster lists the client pod with the cluster's DNS and no dnsConfig ndots below the
 * name's dots + 1; contradicted when its policy gives it another resolv.conf or its ndots is low enough.
 */
final class DnsNdots implements CauseRule {
    /** The ndots the kubelet writes for a ClusterFirst pod without dnsConfig. */
    static final int KUBELET_NDOTS = 5;

    @Override
    public Cause cause() {
        return Cause.DNS_NDOTS;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.DNS_SEARCH_EXPANSION);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Optional<PodDnsFacts> pod = context.podDns(f.client());
        String name = f.examples().get(0).query().name();
        List<String> fix = pod.map(p -> List.of("kubectl -n " + p.pod().namespace() + " get pod " + p.pod().name()
                + " -o jsonpath='{.spec.dnsPolicy} {.spec.dnsConfig}'   (dnsConfig.options ndots lowers the search)"))
                .orElse(List.of("kubectl exec POD -- cat /etc/resolv.conf   (options ndots)"));
        if (pod.isEmpty() || pod.get().dnsPolicy() == null || name == null) {
            return CauseVerdict.unknown(cause(), fix);
        }
        PodDnsFacts p = pod.get();
        if (!p.usesClusterDns()) {
            return new CauseVerdict(cause(), Verdict.CONTRADICTED, List.of(p.fact()), fix);
        }
        int ndots = p.ndots().orElse(KUBELET_NDOTS);
        // resolv.conf(5): a name with at least ndots dots is tried as it is first; the search list only after.
        return new CauseVerdict(cause(), dots(name) < ndots ? Verdict.CONFIRMED : Verdict.CONTRADICTED,
                List.of(p.fact()), fix);
    }

    /** The dots inside a name, not counting a trailing one (the root). */
    static int dots(String name) {
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        return (int) n.chars().filter(c -> c == '.').count();
    }
}
