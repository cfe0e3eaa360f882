package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Established;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code reset-by-gone-endpoint}: an established connection ended in an ICMP unreachable about the client's segment,
 * or in a RST from the server's side while the client's data went unanswered although it was sent again: the backend
 * behind it went away mid-connection. The cluster (a terminating endpoint, or none) says whether that is a rollout.
 */
final class ResetByGoneEndpoint implements ConnectionRule {
    @Override
    public Pattern pattern() {
        return Pattern.RESET_BY_GONE_ENDPOINT;
    }

    @Override
    public boolean matches(Attempt a) {
        Established e = a.established();
        return e.unreachable() != null || e.serverReset() != null && e.serverResetUnanswered();
    }

    @Override
    public Endpoint responder(Attempt a) {
        Established e = a.established();
        return e.unreachable() != null ? e.unreachable().source() : e.serverReset().source();
    }

    /** The packet that ended it: the ICMP error, or the RST. */
    static Sighting ending(Established e) {
        return e.unreachable() != null ? e.unreachable() : e.serverReset();
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        Established e = a.established();
        Established.Side client = e.client();
        Sighting end = ending(e);
        Endpoint backend = a.dnatDestination();
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " connected to " + f.target() + " and the dialed address answered.", a.syn()));
        if (backend != null) {
            story.add(Statement.seen("DNAT sent the connection on to " + backend + ".", a.natCopy()));
        }
        List<Sighting> sends = client.unacknowledged();
        if (!sends.isEmpty()) {
            story.add(Statement.seen("From " + Words.seconds(sends.get(0).nanos - a.synNanos()) + " after the SYN the client's"
                    + " segment of " + client.unacknowledgedLength() + " bytes went unanswered: it was sent again "
                    + Words.times(client.unacknowledgedRetransmissions()) + ".", Words.some(sends)));
        }
        if (end.icmp) {
            story.add(Statement.seen("ICMP " + IcmpTable.name(end.ipVersion, end.icmpType, end.icmpCode) + " from "
                    + end.source().address() + " quoted the client's segment " + Words.seconds(end.nanos - a.synNanos())
                    + " after the SYN.", end));
            story.add(Statement.cited("A node answers a packet for a neighbour that no longer answers ARP or neighbour"
                    + " discovery with ICMP host unreachable; conntrack reverse-NATs the error to the Service address.",
                    "Linux net/ipv4/route.c ipv4_link_failure; net/netfilter/nf_nat_proto.c"));
        } else {
            story.add(Statement.seen("The connection ended with RST from " + end.source() + ".", end));
            story.add(Statement.cited("A TCP stack answers a segment for a connection it no longer has (its process exited,"
                    + " or its pod was deleted and the address reused) with RST.", "RFC 9293 3.10.7.1"));
        }
        if (!judged.ruledOut("endpoint-terminated")) {
            story.add(Statement.likely("The backend went away while the connection was open: a rollout or scale-down"
                    + " deleted the pod before its connections drained."));
        }
        List<Statement> obs = new ArrayList<>();
        if (f.attempts() > 1) {
            obs.add(Statement.seen("the same happened on " + f.attempts() + " connections"));
        }
        List<String> checks = new ArrayList<>();
        if (!judged.answered("endpoint-terminated")) {
            String who = backend != null ? backend.address() : "<the backend>";
            checks.add("kubectl get endpointslices -A -o wide | grep " + who + "   (ready, serving, terminating)");
            checks.add("kubectl get events -A --field-selector reason=Killing   (pods deleted around the time)");
        }
        return new Explanation(story, obs, checks, List.of(
                new Explanation.Remedy("give the backend a preStop hook (e.g. sleep 5-15 s) so it keeps serving while"
                        + " its endpoint is removed and clients move away, and a terminationGracePeriodSeconds above it",
                        "each pod of a rollout takes that much longer to go", "endpoint-terminated"),
                new Explanation.Remedy("have the server stop accepting and close its idle keep-alive connections on SIGTERM"
                        + " (graceful shutdown), so that clients reconnect to a live endpoint", "needs the application's"
                        + " support", "endpoint-terminated"),
                new Explanation.Remedy("in IPVS mode, sysctl net.ipv4.vs.expire_nodest_conn=1: connections to a removed"
                        + " real server are reset at once instead of timing out", "the client still sees a reset; it only"
                        + " sees it sooner"),
                new Explanation.Remedy("clients: retry idempotent requests on a reset or timeout, and bound keep-alive"
                        + " lifetimes", "hides the symptom; a non-idempotent request cannot be retried safely")));
    }
}
