package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.DnsUpstream;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code dns-upstream-failure}: the DNS pod answered SERVFAIL because its own query upstream failed. Confirmed by the
 * capture: the DNS pod's own queries (the address the client's query was DNAT'ed to, or the address that answered)
 * went unanswered or were answered SERVFAIL or REFUSED; contradicted when they were all answered.
 */
final class DnsUpstreamFailure implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.DNS_UPSTREAM_FAILURE;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.DNS_ERROR);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        List<String> fix = List.of("kubectl -n kube-system logs -l k8s-app=kube-dns --tail=50   (the forward plugin's"
                + " errors name the upstream that failed)");
        // The DNS server is where the query was DNAT'ed, else who answered (a capture of the DNS pod's side only).
        Sighting nat = f.examples().stream().map(Attempt::natCopy).filter(s -> s != null).findFirst().orElse(null);
        io.pcapdiag.decode.Endpoint server = nat != null ? nat.destination() : f.examples().get(0).targetAnswer().source();
        Optional<DnsUpstream> upstream = context.dnsUpstream(server);
        if (upstream.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        return new CauseVerdict(cause(), upstream.get().failed() ? Verdict.CONFIRMED : Verdict.CONTRADICTED,
                List.of(upstream.get().fact()), fix);
    }
}
