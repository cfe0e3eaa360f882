package io.pcapdiag.rules;

import static io.pcapdiag.testing.PacketScript.S;
import static io.pcapdiag.testing.PacketScript.synPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.LbIps;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Ref;
import io.pcapdiag.context.Source;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.PacketScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code lb-probe-dropped} only for attempts addressed to the node itself (its address, a NodePort, the Service's
 * healthCheckNodePort): a load balancer's health probe never travels inside an overlay tunnel and is never addressed
 * to a pod. One row per case: two unanswered SYNs from the LB VIP 203.0.113.10 from two ports.
 */
class LbProbeAddressTest {
    private static final String VIP = "203.0.113.10";
    private static final String NODE = "198.51.100.2";
    private static final String POD = "10.244.0.19";

    /** What a context says about the dialed address. */
    enum Known { NOTHING, NODE_FACTS_LOCAL, NODE_FACTS_NOT_LOCAL, CLUSTER_NODE, CLUSTER_POD, CLUSTER_POD_AND_NODE }

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("no context: the packets alone decide", NODE, false, Known.NOTHING, Pattern.LB_PROBE_DROPPED),
                Arguments.of("the node facts hold the dialed address", NODE, false, Known.NODE_FACTS_LOCAL, Pattern.LB_PROBE_DROPPED),
                Arguments.of("the cluster names the dialed address a node's", NODE, false, Known.CLUSTER_NODE, Pattern.LB_PROBE_DROPPED),
                Arguments.of("a host-network pod shares the node's address: still the node", NODE, false,
                        Known.CLUSTER_POD_AND_NODE, Pattern.LB_PROBE_DROPPED),
                Arguments.of("the node facts do not hold the dialed address", POD, false, Known.NODE_FACTS_NOT_LOCAL,
                        Pattern.NO_RESPONSE),
                Arguments.of("seen only after DNAT to a pod", POD, false, Known.CLUSTER_POD, Pattern.NO_RESPONSE),
                Arguments.of("seen only inside an overlay tunnel", NODE, true, Known.NOTHING, Pattern.NO_RESPONSE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void pattern(String name, String target, boolean tunnelled, Known known, Pattern expected) {
        Endpoint vip = Endpoint.address(Ip.parse(VIP)[0], Ip.parse(VIP)[1]);
        List<Context> ctx = new ArrayList<>(List.of(new LbIps(Set.of(vip)), knowing(target, known)));
        PacketScript s = new PacketScript(ctx);
        for (long t : new long[] {0, S}) { // each port's SYN and its retransmission
            for (int port : new int[] {41001, 41002}) {
                byte[] syn = synPacket(VIP, port, target, 30080, port * 7);
                s.packetOn(t + port % 2 * 300_000_000L, tunnelled
                        ? Ipv4Builder.ipv4("192.168.0.1", "192.168.0.2").payload(4, syn).build() : syn, 6);
            }
        }
        List<Finding> fs = s.findings();
        assertEquals(List.of(expected), fs.stream().map(Finding::pattern).distinct().toList(), name);
    }

    private static Context knowing(String target, Known known) {
        String node = "pdlab-node";
        return new Context() {
            private boolean is(Endpoint a) {
                return a.withoutPort().address().equals(target);
            }

            @Override
            public Optional<Reading> localAddress(Endpoint a) {
                return switch (known) {
                    case NODE_FACTS_LOCAL -> Optional.of(new Reading("eth0", is(a) ? "eth0" : null, new Fact(Source.NODE, "local")));
                    case NODE_FACTS_NOT_LOCAL -> Optional.of(new Reading(a.address(), null, new Fact(Source.NODE, "not local")));
                    default -> Optional.empty();
                };
            }

            @Override
            public Optional<Fact> nodeAddress(Endpoint a) {
                return (known == Known.CLUSTER_NODE || known == Known.CLUSTER_POD_AND_NODE) && is(a)
                        ? Optional.of(new Fact(Source.CLUSTER, a.address() + " is an address of node " + node)) : Optional.empty();
            }

            @Override
            public Optional<Ref> ref(Endpoint a) {
                return (known == Known.CLUSTER_POD || known == Known.CLUSTER_POD_AND_NODE) && is(a)
                        ? Optional.of(new Ref(Ref.POD, "default", "web", null, node)) : Optional.empty();
            }
        };
    }
}
