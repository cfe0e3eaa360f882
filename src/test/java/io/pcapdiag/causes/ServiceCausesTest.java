package io.pcapdiag.causes;

import static io.pcapdiag.testing.PacketScript.S;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.testing.PacketScript;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code etp-local-no-local-endpoint} and {@code service-no-endpoints} concern a Service: kube-proxy applies a traffic
 * policy and picks endpoints only for Service addresses, so a SYN the cluster shows went to a pod directly rules both
 * out; an address the cluster does not know leaves them unjudged.
 */
class ServiceCausesTest {
    @ParameterizedTest(name = "target known as {0}")
    @CsvSource({"pod, contradicted", "nothing, unknown"})
    void aPodTargetIsNoService(String known, String expected) {
        Context context = new Context() {
            @Override
            public boolean informs() {
                return true;
            }

            @Override
            public Optional<Ref> ref(Endpoint e) {
                return known.equals("pod") ? Optional.of(new Ref(Ref.POD, "default", "api-1", null, "node-b")) : Optional.empty();
            }
        };
        Finding f = new PacketScript(List.of(context)).syn(0, "10.244.0.18", 40001, "10.244.1.20", 80, 7)
                .syn(S, "10.244.0.18", 40001, "10.244.1.20", 80, 7).findings().get(0);
        for (Cause c : List.of(Cause.ETP_LOCAL_NO_LOCAL_ENDPOINT, Cause.SERVICE_NO_ENDPOINTS)) {
            assertEquals(expected, RpFilterTest.judged(f, context, c).orElseThrow().verdict().id(), c.id());
        }
    }
}
