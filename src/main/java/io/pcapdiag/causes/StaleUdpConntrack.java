package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.EndpointStatus;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code stale-udp-conntrack}: a UDP conntrack entry made while a backend was listed keeps DNAT'ing the client's
 * datagrams to it after it is gone: the entry lives as long as datagrams keep coming (nf_conntrack_udp_timeout_stream),
 * and kube-proxy deletes it only when it sees the endpoint leave. Confirmed when the capture shows the query DNAT'ed
 * to an address that is no ready endpoint of the Service.
 */
final class StaleUdpConntrack implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.STALE_UDP_CONNTRACK;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.DNS_NO_RESPONSE, Pattern.UDP_UNREACHABLE);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        List<String> fix = List.of("conntrack -L -p udp --orig-dst " + f.target().address() + "   (on the node: the"
                + " entries' reply source is the backend they DNAT to)");
        Attempt a = f.examples().stream().filter(x -> x.dnatDestination() != null).findFirst().orElse(null);
        if (a == null) {
            return CauseVerdict.unknown(cause(), fix);
        }
        Optional<EndpointStatus> status = context.endpointStatus(a.dnatDestination(), f.target());
        if (status.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        Sighting cited = a.natCopy() != null ? a.natCopy() : a.icmp();
        io.pcapdiag.context.Fact seen = new io.pcapdiag.context.Fact(io.pcapdiag.context.Source.CAPTURE,
                (a.natCopy() != null ? "DNAT sent the datagram to " : "the ICMP error quotes the datagram DNAT'ed to ")
                        + a.dnatDestination() + " (" + cited.ref(false) + ")");
        return new CauseVerdict(cause(), status.get().ready() ? Verdict.CONTRADICTED : Verdict.CONFIRMED,
                List.of(seen, status.get().fact()), fix);
    }
}
