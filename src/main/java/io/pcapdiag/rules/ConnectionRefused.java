package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;

/** {@code connection-refused}: a RST with ack = ISN+1 answered the SYN (from the dialed address, or its DNAT'ed backend). */
final class ConnectionRefused implements AttemptRule {
    @Override
    public Pattern pattern() {
        return Pattern.CONNECTION_REFUSED;
    }

    @Override
    public Outcome outcome() {
        return Outcome.REFUSED;
    }

    @Override
    public boolean matches(Attempt a) {
        return true;
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>();
        boolean fromTarget = f.responder().equals(f.target());
        if (fromTarget) {
            story.add(Statement.seen(f.target() + " answered the SYN from " + f.client() + " with RST.", a.syn(), a.reset()));
        } else {
            story.add(Statement.seen(f.client() + " dialed " + f.target() + " and the RST came from " + f.responder() + ".",
                    a.syn(), a.reset()));
            if (a.natCopy() != null) {
                story.add(Statement.seen("DNAT had sent the SYN on to " + a.natCopy().destination() + ".", a.natCopy()));
            }
        }
        story.add(Statement.cited("A TCP stack answers a SYN to a port where nothing listens with RST.", "RFC 9293 3.10.7.1"));
        List<String> checks;
        List<Explanation.Remedy> remedies;
        if (fromTarget && f.target().isLoopback()) {
            story.add(Statement.likely("Nothing listens on port " + f.target().port() + " in the network namespace that"
                    + " dialed it: a loopback address reaches only its own host's or pod's sockets (in a pod, a sidecar or"
                    + " another container of the pod that has not started yet, or listens on another port)."));
            checks = List.of("kubectl get pod <pod> -o jsonpath='{.spec.containers[*].ports}'   (the ports its containers"
                    + " declare)");
            remedies = List.of(new Explanation.Remedy("start the container that serves port " + f.target().port()
                    + " before the one that dials it: a native sidecar (an init container with restartPolicy: Always)",
                    "needs Kubernetes 1.29 or later, where the SidecarContainers feature is on by default"));
        } else {
            story.add(Statement.likely(fromTarget
                    ? "Nothing listens on port " + f.target().port() + " there, or the server listens on another address"
                            + (f.target().isV4() ? " (127.0.0.1 instead of 0.0.0.0)." : " (::1, or 0.0.0.0 for IPv4 only, instead of ::).")
                    : "The connection was DNAT'ed to a backend where nothing listens on port " + f.responder().port()
                            + " (a Service targetPort that does not match the container port)."));
            checks = List.of("kubectl get svc,endpointslices -A -o wide   (where the Service sends the port)");
            remedies = List.of(
                    new Explanation.Remedy("check the Service's targetPort against the container's port and that the server binds 0.0.0.0 / ::",
                            "kubectl get svc,endpointslices -o wide shows where the port is sent"),
                    new Explanation.Remedy("if the server is still starting, gate traffic with a readiness probe",
                            "a pod that is not ready is taken out of the endpoints until it listens"));
        }
        List<Statement> obs = new ArrayList<>();
        Words.retransmissions(f, obs);
        return new Explanation(story, obs, checks, remedies);
    }
}
