package io.pcapdiag.diagnosis;

import static io.pcapdiag.testing.PacketScript.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.causes.Cause;
import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.causes.Verdict;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.PolicyVerdict;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Source;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Explanation.Remedy;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Statement;
import io.pcapdiag.testing.PacketScript;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The words around the verdicts follow them: fixes in verdict order and never for a contradicted cause, a fix that
 * loosens isolation says so and names the blocking policy first, "Probably" names no ruled-out cause, and no check
 * asks for what the context already answered.
 */
class SentencesTest {
    private static final String POD = "10.244.0.18";
    private static final String SVC = "10.96.10.80";
    private static final String BACKEND = "10.244.0.19";

    @Test
    void fixesFollowTheVerdicts() {
        List<Remedy> rules = List.of(new Remedy("etp", null, "etp-local-no-local-endpoint"), new Remedy("general", null),
                new Remedy("policy", null, "network-policy"), new Remedy("rp", null, "rp-filter"),
                new Remedy("conntrack", null, "conntrack-full"));
        List<CauseVerdict> causes = List.of(
                new CauseVerdict(Cause.NETWORK_POLICY, Verdict.CONFIRMED, List.of(), List.of()),
                new CauseVerdict(Cause.CONNTRACK_FULL, Verdict.CONSISTENT, List.of(), List.of()),
                new CauseVerdict(Cause.ETP_LOCAL_NO_LOCAL_ENDPOINT, Verdict.UNKNOWN, List.of(), List.of()),
                new CauseVerdict(Cause.RP_FILTER, Verdict.CONTRADICTED, List.of(), List.of()));
        assertEquals(List.of("policy", "conntrack", "etp", "general"),
                Diagnose.remedies(rules, causes).stream().map(Remedy::fix).toList());
    }

    private static Diagnosis bypass(String bridgeNf) {
        Context context = new Context() {
            @Override
            public boolean informs() {
                return true;
            }

            @Override
            public Optional<Reading> bridgedToIptables(Endpoint client, int ifIndex) {
                return Optional.of(new Reading("cni0", bridgeNf, new Fact(Source.NODE, "bridge-nf-call-iptables = " + bridgeNf)));
            }
        };
        List<Diagnosis> ds = new PacketScript(List.of(context)).syn(0, POD, 40001, SVC, 8080, 1000)
                .syn(50_000, POD, 40001, BACKEND, 80, 1000).synAck(100_000, BACKEND, 80, POD, 40001, 5000, 1001)
                .rst(110_000, POD, 40001, BACKEND, 80, 1001, 0, false).syn(S, POD, 40001, SVC, 8080, 1000).diagnoses();
        assertEquals(Pattern.NAT_BYPASS_REPLY, ds.get(0).finding().pattern());
        return ds.get(0);
    }

    private static String likely(Diagnosis d) {
        return d.explanation().story().stream().filter(s -> s.kind() == Statement.Kind.LIKELY).map(Statement::text)
                .collect(Collectors.joining(" "));
    }

    @Test
    void aConfirmedCauseIsNotCheckedAgainAndItsFixComesFirst() {
        Explanation x = bypass("0").explanation();
        assertEquals(List.of(), x.checks(), "the node facts answered bridge-nf-call-iptables");
        assertTrue(x.remedies().get(0).fix().contains("br_netfilter"), x.remedies().toString());
        assertTrue(likely(bypass("0")).contains("conntrack never saw it"));
    }

    @Test
    void aContradictedCauseIsNeitherLikelyNorFixed() {
        Diagnosis d = bypass("1");
        assertEquals(List.of(), d.explanation().checks());
        assertFalse(d.explanation().remedies().stream().anyMatch(r -> r.fix().contains("br_netfilter")),
                d.explanation().remedies().toString());
        assertFalse(likely(d).contains("conntrack never saw it"), likely(d));
    }

    @Test
    void aPolicyFixSaysItLoosensIsolationAndNamesTheBlockingPolicyFirst() {
        Context context = new Context() {
            @Override
            public boolean informs() {
                return true;
            }

            @Override
            public Optional<PolicyVerdict> policy(Endpoint client, Endpoint target) {
                return Optional.of(new PolicyVerdict(false, new Fact(Source.CLUSTER, "NetworkPolicy shop/deny-web selects"
                        + " pod shop/web for ingress and no rule admits " + client.address()), "kubectl -n shop apply -f - <<< '{}'",
                        List.of("shop/deny-web")));
            }

            @Override
            public Optional<Reading> sysctl(String key) {
                return key.endsWith("rp_filter") ? Optional.of(new Reading(key, "0", new Fact(Source.NODE, key + " = 0")))
                        : Optional.empty();
            }
        };
        Diagnosis d = new PacketScript(List.of(context)).syn(0, POD, 40001, BACKEND, 80, 1000).syn(S, POD, 40001, BACKEND, 80, 1000)
                .diagnoses().get(0);
        assertEquals(Pattern.NO_RESPONSE, d.finding().pattern());
        CauseVerdict policy = d.causes().get(0);
        assertEquals(Cause.NETWORK_POLICY, policy.cause());
        assertEquals(Verdict.CONFIRMED, policy.verdict());
        assertTrue(policy.fix().get(0).startsWith("this loosens isolation set on purpose by NetworkPolicy shop/deny-web"),
                policy.fix().toString());
        assertTrue(policy.fix().get(0).contains("kubectl -n shop get networkpolicy deny-web -o yaml"), policy.fix().toString());
        assertTrue(policy.fix().get(1).startsWith("kubectl -n shop apply"), policy.fix().toString());
        assertTrue(d.explanation().remedies().get(0).fix().contains("NetworkPolicies"),
                "the confirmed cause's fix comes first: " + d.explanation().remedies());
    }

    @Test
    void probablyNamesNoRuledOutCause() {
        Context context = new Context() {
            @Override
            public boolean informs() {
                return true;
            }

            @Override
            public Optional<PolicyVerdict> policy(Endpoint client, Endpoint target) {
                return Optional.of(new PolicyVerdict(true, new Fact(Source.CLUSTER, "no NetworkPolicy selects pod shop/web"),
                        null, List.of()));
            }
        };
        Diagnosis d = new PacketScript(List.of(context)).syn(0, POD, 40001, BACKEND, 80, 1000).syn(S, POD, 40001, BACKEND, 80, 1000)
                .diagnoses().get(0);
        assertFalse(likely(d).contains("NetworkPolicy"), likely(d));
        assertTrue(likely(d).contains("a firewall"), likely(d));
        assertFalse(d.explanation().remedies().stream().anyMatch(r -> r.fix().contains("NetworkPolicies")),
                d.explanation().remedies().toString());
    }

    @Test
    void aCheckForAFactTheNodeFactsHoldIsNotPrinted() {
        String vip = "203.0.113.10";
        Context holds = new Context() {
            @Override
            public Optional<Reading> localAddress(Endpoint a) {
                return Optional.of(new Reading("kube-ipvs0", "kube-ipvs0", new Fact(Source.NODE, a.address() + " is on kube-ipvs0")));
            }
        };
        for (Context c : List.of(holds, Context.none())) {
            Diagnosis d = new PacketScript(List.of(c)).syn(0, POD, 40001, vip, 443, 1000)
                    .unreachable(100_000, vip, POD, 3, PacketScript.synPacket(POD, 40001, vip, 443, 1000), 64).diagnoses().get(0);
            assertEquals(Pattern.VIP_LOCAL_REJECT, d.finding().pattern());
            assertEquals(c != holds, d.explanation().checks().stream().anyMatch(x -> x.startsWith("ip addr show kube-ipvs0")),
                    d.explanation().checks().toString());
        }
    }
}
