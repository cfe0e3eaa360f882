package io.pcapdiag.rules;

import io.pcapdiag.track.Attempt;
import java.util.ArrayList;
import java.util.List;

/** What the DNS patterns' stories share: the query as asked, its re-sends, the resolver's timeout, checks and fixes. */
final class DnsRules {
    private DnsRules() {
    }

    /** "10.244.0.18 asked 10.96.0.10:53 A? web.default.svc.cluster.local. (id 21028)." */
    static List<Statement> asked(Finding f, Attempt a) {
        List<Statement> story = new ArrayList<>();
        story.add(Statement.seen(f.client() + " asked " + f.target() + " " + a.query().question() + " (id " + a.query().id()
                + (f.attempts() > 1 ? "; " + Words.count(f.attempts(), "query", "queries") + " like it" : "") + ").",
                a.syn()));
        return story;
    }

    /** The client's re-sends, or the capture's time after the query. */
    static Statement resend(Finding f, Attempt a) {
        if (a.retransmissions() == 0) {
            return Statement.seen("No answer came in the 5 s or more the capture went on after it, and the client did"
                    + " not ask again in that time.");
        }
        String then = a.targetAnswer() != null ? ", and only the query sent again was answered" : ", and got no answer";
        return Statement.seen("The client asked again " + Words.times(a.retransmissions()) + " (the first time "
                + Words.seconds(a.firstResendDelayNanos()) + " later)" + then + ".", a.targetAnswer() == null ? List.of()
                : List.of(a.targetAnswer()));
    }

    /**
     * Why the lookup took 5 s, when the client asked again about 5 s later as glibc does; else nothing (musl asks every
     * 1-2 s, a script whenever it likes: the delay it cost is then what the capture shows).
     */
    static List<Statement> resolverTimeout(Attempt a) {
        long resend = a.firstResendDelayNanos();
        if (a.retransmissions() == 0 || resend < 4_500_000_000L || resend > 5_500_000_000L) {
            return List.of();
        }
        return List.of(resolverTimeout());
    }

    private static Statement resolverTimeout() {
        return Statement.cited("The glibc resolver sends A and AAAA together from one socket and asks again after"
                + " timeout:5 s when an answer is missing: the lookup took at least 5 s.",
                "resolv.conf(5) timeout, single-request; glibc resolv/res_send.c send_dg");
    }

    static List<String> checks(Finding f, Judged judged) {
        List<String> checks = new ArrayList<>();
        checks.add("kubectl -n kube-system get endpointslices -l k8s-app=kube-dns -o wide   (the DNS pods' addresses,"
                + " ready?)");
        checks.add("conntrack -L -p udp --orig-dst " + f.target().address() + " --orig-port-dst " + f.target().port()
                + "   (on the node: does an entry DNAT to an address that is no ready DNS pod?)");
        if (!judged.answered("conntrack-insert-race")) {
            checks.add("conntrack -S   (on the node: insert_failed rising?)");
        }
        checks.add("kubectl exec POD -- cat /etc/resolv.conf   (the nameserver the pod asks)");
        return checks;
    }

    static List<Explanation.Remedy> remedies(Finding f) {
        return List.of(
                new Explanation.Remedy("delete the stale entries: conntrack -D -p udp --orig-dst " + f.target().address()
                        + " (kube-proxy clears them when a DNS pod leaves the Service; check its logs if it did not)",
                        "the next query makes a new entry to a ready DNS pod", "stale-udp-conntrack"),
                new Explanation.Remedy("allow the client's egress and the DNS pods' ingress on port 53 (UDP and TCP) in"
                        + " the NetworkPolicies that select them", "an allow rule loosens isolation someone set on"
                        + " purpose: admit the DNS port only", "network-policy"),
                new Explanation.Remedy("bring the DNS Deployment back to ready replicas (kubectl -n kube-system get deploy"
                        + " coredns)", null, "service-no-endpoints"),
                new Explanation.Remedy("add `options single-request-reopen` to the pods' dnsConfig, or run NodeLocal"
                        + " DNSCache", "A and AAAA one after the other; one more component per node",
                        "conntrack-insert-race"));
    }
}
