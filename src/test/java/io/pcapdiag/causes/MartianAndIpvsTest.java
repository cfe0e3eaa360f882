package io.pcapdiag.causes;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static io.pcapdiag.testing.PacketScript.synPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.LbIps;
import io.pcapdiag.context.Reading;
import io.pcapdiag.context.Ref;
import io.pcapdiag.context.ServiceFacts;
import io.pcapdiag.context.Source;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.PacketScript;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Truth tables of two causes the kernel decides: {@code lb-vip-bound-locally} (fib_validate_source rejects a source the
 * node holds unless accept_local is on in conf.all or conf.DEV; kube-proxy binds LB IPs only in IPVS mode) and
 * {@code ipvs-conn-reuse} (IPVS mode, conn_reuse_mode 1, a kernel before 5.9, a gap of about a second).
 */
class MartianAndIpvsTest {
    private static final String VIP = "203.0.113.10"; // on kube-ipvs0 in TestNode
    private static final String NODE = "198.51.100.2";

    // ---------------------------------------------------------------- lb-vip-bound-locally

    static Stream<Arguments> martians() {
        return Stream.of(
                Arguments.of("the node holds the source, accept_local off on the ingress and in all", true,
                        (UnaryOperator<TestNode>) n -> n.sysctl("net.ipv4.conf.all.accept_local", 0).sysctl("net.ipv4.conf.eth0.accept_local", 0),
                        null, null, Verdict.CONFIRMED),
                Arguments.of("accept_local on the ingress interface: the kernel takes the packet", true,
                        (UnaryOperator<TestNode>) n -> n.sysctl("net.ipv4.conf.all.accept_local", 0).sysctl("net.ipv4.conf.eth0.accept_local", 1),
                        null, null, Verdict.CONTRADICTED),
                Arguments.of("accept_local in conf.all (OR, not max)", true,
                        (UnaryOperator<TestNode>) n -> n.sysctl("net.ipv4.conf.all.accept_local", 1).sysctl("net.ipv4.conf.eth0.accept_local", 0),
                        null, null, Verdict.CONTRADICTED),
                Arguments.of("accept_local on another interface only: eth0 still drops", true,
                        (UnaryOperator<TestNode>) n -> n.sysctl("net.ipv4.conf.all.accept_local", 0).sysctl("net.ipv4.conf.eth0.accept_local", 0)
                                .sysctl("net.ipv4.conf.eth1.accept_local", 1), null, null, Verdict.CONFIRMED),
                Arguments.of("accept_local unknown: the node holds it, the kernel may still take it", true,
                        (UnaryOperator<TestNode>) n -> n, null, null, Verdict.CONSISTENT),
                Arguments.of("the node facts do not hold the source", false, (UnaryOperator<TestNode>) n -> n, null, null,
                        Verdict.CONTRADICTED),
                Arguments.of("cluster only: LB IP with ipMode VIP, kube-proxy in IPVS mode", null, null, "VIP", "ipvs",
                        Verdict.CONFIRMED),
                Arguments.of("cluster only: ipMode VIP, kube-proxy in iptables mode binds no LB IP", null, null, "VIP", "iptables",
                        Verdict.CONTRADICTED),
                Arguments.of("cluster only: ipMode VIP, kube-proxy in nftables mode binds no LB IP", null, null, "VIP", "nftables",
                        Verdict.CONTRADICTED),
                Arguments.of("cluster only: ipMode VIP, kube-proxy's mode unknown", null, null, "VIP", null, Verdict.CONSISTENT),
                Arguments.of("cluster only: ipMode Proxy", null, null, "Proxy", "ipvs", Verdict.CONTRADICTED));
    }

    /**
     * @param nodeHolds true/false: node facts (the lab's node, the VIP on kube-ipvs0, or a source it does not hold);
     *                  null: no node facts
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("martians")
    void martian(String name, Boolean nodeHolds, UnaryOperator<TestNode> node, String ipMode, String proxyMode, Verdict expected) {
        String source = Boolean.FALSE.equals(nodeHolds) ? "203.0.113.99" : VIP;
        Context context = nodeHolds != null ? node.apply(new TestNode()).context() : cluster(source, ipMode, proxyMode);
        long[] s = Ip.parse(source);
        PacketScript script = new PacketScript(List.of(new LbIps(Set.of(Endpoint.address(s[0], s[1]))), context));
        for (long t : new long[] {0, S}) {
            for (int port : new int[] {41001, 41002}) {
                script.packetOn(t + port % 2 * 300 * MS, synPacket(source, port, NODE, 30080, port * 7), 6);
            }
        }
        Finding f = script.findings().get(0);
        assertEquals(Pattern.LB_PROBE_DROPPED, f.pattern());
        CauseVerdict v = RpFilterTest.judged(f, context, Cause.LB_VIP_BOUND_LOCALLY).orElseThrow();
        assertEquals(expected, v.verdict(), name + ": " + v.facts());
    }

    private static Context cluster(String lbIp, String ipMode, String proxyMode) {
        Ref svc = new Ref(Ref.SERVICE, "default", "web-lb", null, null);
        return new Context() {
            @Override
            public boolean informs() {
                return true;
            }

            @Override
            public Optional<ServiceFacts> lbService(Endpoint a) {
                return a.address().equals(lbIp) ? Optional.of(new ServiceFacts(svc, "LoadBalancer ingress", true, List.of(80),
                        "Cluster", 1, Map.of(), ipMode, Map.of(), new Fact(Source.CLUSTER, lbIp + " is the LoadBalancer ingress of"
                        + " svc default/web-lb, ipMode " + ipMode))) : Optional.empty();
            }

            @Override
            public Optional<Reading> proxyMode() {
                return Optional.ofNullable(proxyMode).map(m -> new Reading("kube-proxy", m, new Fact(Source.CLUSTER, "mode " + m)));
            }
        };
    }

    // ---------------------------------------------------------------- ipvs-conn-reuse

    static Stream<Arguments> reuse() {
        return Stream.of(
                Arguments.of("IPVS, conn_reuse_mode 1, kernel 5.4, a 1 s gap", "ipvs", "1", "5.4.0-150-generic", S, Verdict.CONFIRMED),
                Arguments.of("IPVS, conn_reuse_mode 1, kernel 5.9: IPVS no longer drops", "ipvs", "1", "5.9.1", S, Verdict.CONTRADICTED),
                Arguments.of("IPVS, conn_reuse_mode 1, kernel 6.1: IPVS no longer drops", "ipvs", "1", "6.1.0-18-amd64", S,
                        Verdict.CONTRADICTED),
                Arguments.of("IPVS, conn_reuse_mode 0", "ipvs", "0", "5.4.0", S, Verdict.CONTRADICTED),
                Arguments.of("iptables mode: no IPVS on the path", "iptables", "1", "5.4.0", S, Verdict.CONTRADICTED),
                Arguments.of("nftables mode: no IPVS on the path", "nftables", "1", "5.4.0", S, Verdict.CONTRADICTED),
                Arguments.of("IPVS, conn_reuse_mode 1, kernel 5.4, a 3 s gap", "ipvs", "1", "5.4.0", 3 * S, Verdict.CONTRADICTED),
                Arguments.of("IPVS, conn_reuse_mode 1, kernel unknown", "ipvs", "1", null, S, Verdict.CONSISTENT),
                Arguments.of("kernel 5.4 alone", null, null, "5.4.0", S, Verdict.CONSISTENT),
                Arguments.of("nothing known", null, null, null, S, Verdict.UNKNOWN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("reuse")
    void ipvsReuse(String name, String mode, String reuseMode, String kernel, long gap, Verdict expected) {
        Context context = new Context() {
            @Override
            public Optional<Reading> proxyMode() {
                return Optional.ofNullable(mode).map(m -> new Reading("kube-proxy", m, new Fact(Source.NODE, "mode " + m)));
            }

            @Override
            public Optional<Reading> sysctl(String key) {
                return key.equals(IpvsConnReuse.REUSE) ? Optional.ofNullable(reuseMode)
                        .map(v -> new Reading(key, v, new Fact(Source.NODE, key + " = " + v))) : Optional.empty();
            }

            @Override
            public Optional<Reading> kernelRelease() {
                return Optional.ofNullable(kernel).map(k -> new Reading("kernel", k, new Fact(Source.NODE, "Linux " + k)));
            }
        };
        PacketScript s = new PacketScript(List.of(context)).syn(0, "10.244.0.18", 40001, "10.96.10.80", 8080, 1000)
                .syn(gap, "10.244.0.18", 40001, "10.96.10.80", 8080, 1000)
                .synAck(gap + MS, "10.96.10.80", 8080, "10.244.0.18", 40001, 5, 1001);
        Finding f = s.findings().get(0);
        assertEquals(Pattern.DELAYED_CONNECT, f.pattern());
        CauseVerdict v = RpFilterTest.judged(f, context, Cause.IPVS_CONN_REUSE).orElseThrow();
        assertEquals(expected, v.verdict(), name + ": " + v.facts());
    }
}
