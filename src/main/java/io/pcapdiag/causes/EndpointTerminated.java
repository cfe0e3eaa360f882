package io.pcapdiag.causes;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.EndpointStatus;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Ref;
import io.pcapdiag.context.ServiceFacts;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Attempt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code endpoint-terminated}: the backend the connection was DNAT'ed to went away while it was open. A pod being
 * deleted is listed terminating in its EndpointSlices (condition terminating, discovery.k8s.io/v1; not ready, and
 * serving only while its readiness probe still passes) until it is gone, then in none; kube-proxy stops sending new
 * connections to it, but the conntrack entries of open ones keep their DNAT to it, so their next segments meet a
 * closed socket (RST) or no neighbour (ICMP host unreachable).
 *
 * <p>Judged on the cluster for the backend the capture shows: the DNAT'ed copy's destination, or the dialed address
 * itself when that is no Service's but listed among a Service's endpoints (a capture on the backend's node, where the
 * connection arrives already DNAT'ed). Confirmed when it is terminating or in no EndpointSlice of the Service;
 * contradicted when it is a ready, serving, not terminating endpoint; consistent when it is listed not ready (not
 * deleted, but no longer sent connections). With no backend in the capture: consistent when an endpoint of the Service
 * is terminating, else unknown (a backend already gone is in no EndpointSlice to see).
 */
final class EndpointTerminated implements CauseRule {
    @Override
    public Cause cause() {
        return Cause.ENDPOINT_TERMINATED;
    }

    @Override
    public Set<Pattern> patterns() {
        return Set.of(Pattern.RESET_BY_GONE_ENDPOINT);
    }

    @Override
    public CauseVerdict judge(Finding f, Context context) {
        Attempt a = f.examples().stream().filter(x -> x.dnatDestination() != null).findFirst().orElse(f.examples().get(0));
        Endpoint backend = a.dnatDestination();
        Optional<ServiceFacts> service = context.service(f.target(), "TCP").filter(ServiceFacts::portInService);
        if (service.isPresent()) {
            List<String> fix = fix(service.get().ref(), backend, context);
            if (backend == null) {
                return unseenBackend(f, service.get(), context, fix);
            }
            Optional<EndpointStatus> status = context.endpointStatus(backend, f.target(), "TCP");
            if (status.isEmpty()) {
                return CauseVerdict.unknown(cause(), fix);
            }
            Fact dnat = Fact.capture("DNAT sent the connection to " + backend + (a.natCopy() != null ? " (" + a.natCopy().ref(false)
                    + ")" : ""));
            return new CauseVerdict(cause(), verdict(List.of(status.get())), List.of(dnat, status.get().fact()), fix);
        }
        // The dialed address is the backend itself, reached after DNAT elsewhere: the Services that list it.
        List<EndpointStatus> listed = context.listings(f.target(), "TCP");
        List<String> fix = fix(null, f.target(), context);
        if (listed.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        List<Fact> facts = new ArrayList<>();
        facts.add(Fact.capture("the capture shows the connection to " + f.target() + " itself: DNAT, if any, was before it"));
        listed.forEach(s -> facts.add(s.fact()));
        return new CauseVerdict(cause(), verdict(listed), facts, fix);
    }

    /** Terminating or unlisted anywhere: confirmed; live everywhere: contradicted; otherwise (not ready) consistent. */
    private static Verdict verdict(List<EndpointStatus> statuses) {
        if (statuses.stream().anyMatch(s -> !s.listed() || s.terminating())) {
            return Verdict.CONFIRMED;
        }
        return statuses.stream().allMatch(EndpointStatus::live) ? Verdict.CONTRADICTED : Verdict.CONSISTENT;
    }

    /** The capture does not show which backend: a terminating endpoint of the Service makes it consistent. */
    private CauseVerdict unseenBackend(Finding f, ServiceFacts service, Context context, List<String> fix) {
        List<Fact> facts = new ArrayList<>();
        for (EndpointStatus s : context.endpoints(f.target(), "TCP")) {
            if (s.terminating()) {
                facts.add(s.fact());
            }
        }
        if (facts.isEmpty()) {
            return CauseVerdict.unknown(cause(), fix);
        }
        facts.add(0, Fact.capture("the capture does not show which endpoint of " + service.ref().text() + " the connection"
                + " was DNAT'ed to"));
        return new CauseVerdict(cause(), Verdict.CONSISTENT, facts, fix);
    }

    /** A preStop hook and a grace period for the pods behind the Service, named as far as the cluster names them. */
    private static List<String> fix(Ref service, Endpoint backend, Context context) {
        Optional<Ref> pod = backend == null ? Optional.empty()
                : context.ref(backend.withoutPort()).filter(r -> Ref.POD.equals(r.kind()));
        String ns = pod.map(Ref::namespace).orElse(service != null ? service.namespace() : null);
        String whose = pod.map(r -> "the owner of pod " + r.name())
                .orElse(service != null ? "the workload behind " + service.text() : "the backend's workload");
        return List.of("kubectl" + (ns != null ? " -n " + ns : " -n <namespace>") + " edit deployment <" + whose + ">   (a"
                + " preStop hook, e.g. lifecycle.preStop.sleep.seconds: 10, and terminationGracePeriodSeconds above it: the pod"
                + " keeps serving while its endpoint is removed)");
    }
}
