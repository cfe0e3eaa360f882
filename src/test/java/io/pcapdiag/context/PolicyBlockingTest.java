package io.pcapdiag.context;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The policies a refusal names are the ones a fix would loosen; a policy whose rule admits the client is none. */
class PolicyBlockingTest {
    @Test
    void refusingPoliciesOfEitherDirection() {
        assertEquals(List.of("default/web-allow-frontend"), ClusterContext.blocking("NetworkPolicy default/web-allow-frontend selects"
                + " pod default/web-5b7c9d8f6-p4q8r on TCP 80 for ingress and no rule admits 10.244.0.18 (pod default/client)"));
        assertEquals(List.of("shop/a", "shop/b", "ops/egress-lock"), ClusterContext.blocking("NetworkPolicies shop/a, shop/b select"
                + " pod shop/web on TCP 80 for ingress and no rule admits 10.0.0.1; NetworkPolicy ops/egress-lock selects pod"
                + " ops/client for egress and no rule admits pod shop/web on TCP 80"));
        assertEquals(List.of("ops/egress-lock"), ClusterContext.blocking("NetworkPolicy shop/a selects pod shop/web on TCP 80 for"
                + " ingress and a rule admits 10.0.0.1; NetworkPolicy ops/egress-lock selects pod ops/client for egress and no rule"
                + " admits pod shop/web on TCP 80"));
    }
}
