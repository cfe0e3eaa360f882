package io.pcapdiag.rules;

import io.pcapdiag.context.Context;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.DnsQuery;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;

/** {@code dns-error}: an answer with rcode SERVFAIL (2) or REFUSED (5), or a truncated one never asked again over TCP. */
final class DnsError implements AttemptRule {
    static final int SERVFAIL = 2;
    static final int REFUSED = 5;

    @Override
    public Pattern pattern() {
        return Pattern.DNS_ERROR;
    }

    @Override
    public Outcome outcome() {
        return Outcome.ANSWERED;
    }

    @Override
    public boolean matches(Attempt a) {
        return a.query() != null && (a.rcode() == SERVFAIL || a.rcode() == REFUSED || a.truncatedNotRetried());
    }

    @Override
    public Explanation explain(Finding f, Context context, Judged judged) {
        Attempt a = f.examples().get(0);
        List<Statement> story = new ArrayList<>(DnsRules.asked(f, a));
        int rcode = a.rcode();
        if (rcode == SERVFAIL || rcode == REFUSED) {
            story.add(Statement.seen(a.targetAnswer().source() + " answered " + DnsQuery.rcodeName(rcode) + " after "
                    + Words.millis(a.connectNanos()) + ".", a.targetAnswer()));
        } else {
            story.add(Statement.seen(a.targetAnswer().source() + " answered with the TC bit set (truncated), and the client"
                    + " never asked again over TCP.", a.targetAnswer()));
        }
        if (rcode == SERVFAIL) {
            story.add(Statement.cited("SERVFAIL: the server could not answer. CoreDNS answers it when the upstream it"
                    + " forwards to fails or does not answer, and when its loop plugin finds a forwarding loop.",
                    "RFC 1035 4.1.1; CoreDNS plugins forward and loop"));
            if (!judged.ruledOut("dns-upstream-failure")) {
                story.add(Statement.likely("The DNS pod's upstream (the node's resolv.conf, or the forward plugin's"
                        + " targets) failed or is unreachable from the DNS pod."));
            }
        } else if (rcode == REFUSED) {
            story.add(Statement.cited("REFUSED: the server will not answer this client or this zone, by its own policy.",
                    "RFC 1035 4.1.1"));
            story.add(Statement.likely("The DNS server's access rules or its zone configuration do not cover this query."));
        } else {
            story.add(Statement.cited("A client that gets a truncated answer asks again over TCP.", "RFC 7766 5; RFC 1035 4.2.1"));
            story.add(Statement.likely("TCP to the DNS port is blocked, or the client's resolver does not retry over TCP."));
        }
        List<String> checks = new ArrayList<>();
        checks.add("kubectl -n kube-system logs -l k8s-app=kube-dns --tail=100   (forward errors, loop detected)");
        checks.add("kubectl -n kube-system get configmap coredns -o yaml   (the forward plugin's upstreams)");
        return new Explanation(story, List.of(), checks, List.of(
                new Explanation.Remedy("fix the DNS pods' upstream: the forward targets in the CoreDNS ConfigMap, or the"
                        + " node's /etc/resolv.conf they inherit (a 127.0.0.53 stub there makes a loop)",
                        null, "dns-upstream-failure"),
                new Explanation.Remedy("if a NetworkPolicy selects the DNS pods, allow their egress to the upstream's"
                        + " port 53", "this loosens the isolation of the DNS pods: allow only the upstream's address",
                        "network-policy")));
    }
}
