package io.pcapdiag.causes;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.context.Context;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.PacketScript;
import io.pcapdiag.testing.TcpBuilder;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Truth tables of {@code bridge-nf-call-off} (br_nf_pre_routing: the namespace's bridge-nf-call-ip(6)tables OR the
 * bridge's own nf_call_ip(6)tables; br_netfilter not loaded is off), {@code hairpin-mode-off} (per bridge port) and
 * {@code conntrack-full} / {@code conntrack-insert-race} (per-CPU statistics summed), against {@link TestNode}'s facts.
 */
class BridgeAndConntrackTest {
    private static final String BR = "net.bridge.bridge-nf-call-iptables";
    private static final String BR6 = "net.bridge.bridge-nf-call-ip6tables";

    static Stream<Arguments> bridged() {
        return Stream.of(
                row("br_netfilter not loaded", false, n -> n.set("br_netfilter_loaded", false), Verdict.CONFIRMED),
                row("global 0, cni0's own 0", false, n -> n.sysctl(BR, 0).bridgeOption("cni0", "nf_call_iptables", 0), Verdict.CONFIRMED),
                row("global 1", false, n -> n.sysctl(BR, 1).bridgeOption("cni0", "nf_call_iptables", 0), Verdict.CONTRADICTED),
                row("global 0, cni0's own 1: per bridge", false, n -> n.sysctl(BR, 0).bridgeOption("cni0", "nf_call_iptables", 1),
                        Verdict.CONTRADICTED),
                row("global unknown, cni0's own 0: unknown, not 0", false,
                        n -> n.withoutSysctl(BR).bridgeOption("cni0", "nf_call_iptables", 0), Verdict.UNKNOWN),
                row("IPv6 follows ip6tables, not iptables", true,
                        n -> n.sysctl(BR, 1).sysctl(BR6, 0).bridgeOption("cni0", "nf_call_ip6tables", 0), Verdict.CONFIRMED),
                row("IPv6 with cni0's own nf_call_ip6tables 1", true,
                        n -> n.sysctl(BR, 0).sysctl(BR6, 0).bridgeOption("cni0", "nf_call_ip6tables", 1), Verdict.CONTRADICTED));
    }

    private static Arguments row(String name, boolean v6, UnaryOperator<TestNode> node, Verdict v) {
        return Arguments.of(name, v6, node, v);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bridged")
    void bridgeNfCall(String name, boolean v6, UnaryOperator<TestNode> node, Verdict expected) {
        Context context = node.apply(new TestNode()).context();
        String pod = v6 ? "fd00::18" : "10.244.0.18";
        String svc = v6 ? "fd00:96::80" : "10.96.10.80";
        String backend = v6 ? "fd00::19" : "10.244.0.19";
        PacketScript s = new PacketScript(List.of(context));
        s.packetOn(0, ip(pod, svc, TcpBuilder.tcp(40001, 8080).seq(1000).flags(TcpBuilder.SYN)), 4) // veth-a, a port of cni0
                .packetOn(MS / 10, ip(pod, backend, TcpBuilder.tcp(40001, 80).seq(1000).flags(TcpBuilder.SYN)), 2)
                .packetOn(MS / 5, ip(backend, pod, TcpBuilder.tcp(80, 40001).seq(5000).ack(1001).flags(TcpBuilder.SYN | TcpBuilder.ACK)), 5)
                .packetOn(MS / 4, ip(pod, backend, TcpBuilder.tcp(40001, 80).seq(1001).flags(TcpBuilder.RST)), 4)
                .packetOn(S, ip(pod, svc, TcpBuilder.tcp(40001, 8080).seq(1000).flags(TcpBuilder.SYN)), 4);
        Finding f = s.findings().get(0);
        assertEquals(Pattern.NAT_BYPASS_REPLY, f.pattern());
        assertEquals(expected, RpFilterTest.judged(f, context, Cause.BRIDGE_NF_CALL_OFF).orElseThrow().verdict(), name);
    }

    private static byte[] ip(String src, String dst, TcpBuilder t) {
        return src.indexOf(':') >= 0 ? Ipv6Builder.ipv6(src, dst).tcp(t).build() : Ipv4Builder.ipv4(src, dst).tcp(t).build();
    }

    static Stream<Arguments> conntrack() {
        return Stream.of(
                Arguments.of("count at max", (UnaryOperator<TestNode>) n -> n.sysctl(ConntrackFull.COUNT, 262144), Verdict.CONFIRMED, null),
                Arguments.of("drop rose", (UnaryOperator<TestNode>) n -> n.sysctl(ConntrackFull.COUNT, 10)
                        .conntrackRise("drop", 4), Verdict.CONFIRMED, null),
                Arguments.of("below max, nothing rose", (UnaryOperator<TestNode>) n -> n.sysctl(ConntrackFull.COUNT, 10),
                        Verdict.CONTRADICTED, Verdict.CONTRADICTED),
                Arguments.of("insert_failed rose", (UnaryOperator<TestNode>) n -> n.sysctl(ConntrackFull.COUNT, 10)
                        .conntrackRise("insert_failed", 2), Verdict.CONTRADICTED, Verdict.CONFIRMED),
                Arguments.of("nothing sampled, count unknown", (UnaryOperator<TestNode>) n -> n.withoutSysctl(ConntrackFull.COUNT)
                        .withoutSysctl(ConntrackFull.MAX).set("sample", java.util.Map.of("unknown", "not sampled")),
                        Verdict.UNKNOWN, Verdict.UNKNOWN));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conntrack")
    void conntrackCounters(String name, UnaryOperator<TestNode> node, Verdict full, Verdict race) {
        Context context = node.apply(new TestNode()).context();
        Finding f = new PacketScript(List.of(context)).syn(0, "10.244.0.18", 40001, "10.96.10.80", 8080, 1000)
                .syn(S, "10.244.0.18", 40001, "10.96.10.80", 8080, 1000)
                .synAck(S + MS, "10.96.10.80", 8080, "10.244.0.18", 40001, 5, 1001).findings().get(0);
        assertEquals(Pattern.DELAYED_CONNECT, f.pattern());
        assertEquals(full, RpFilterTest.judged(f, context, Cause.CONNTRACK_FULL).orElseThrow().verdict(), name);
        if (race != null) {
            assertEquals(race, RpFilterTest.judged(f, context, Cause.CONNTRACK_INSERT_RACE).orElseThrow().verdict(), name);
        }
    }

    static Stream<Arguments> hairpins() {
        return Stream.of(
                Arguments.of("the client's port veth-a off, veth-b on: per port", 0, 1, Verdict.CONFIRMED),
                Arguments.of("the client's port veth-a on, veth-b off", 1, 0, Verdict.CONTRADICTED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hairpins")
    void hairpinPerPort(String name, int vethA, int vethB, Verdict expected) {
        TestNode node = new TestNode();
        node.port("veth-a", vethA).port("veth-b", vethB);
        Context context = node.context();
        String pod = "10.244.0.18";
        PacketScript s = new PacketScript(List.of(context));
        for (long t : new long[] {0, S}) {
            s.packetOn(t, ip(pod, "10.96.10.80", TcpBuilder.tcp(40001, 8080).seq(1000).flags(TcpBuilder.SYN)), 4)
                    .packetOn(t + MS / 10, ip(pod, pod, TcpBuilder.tcp(40001, 80).seq(1000).flags(TcpBuilder.SYN)), 2);
        }
        Finding f = s.findings().get(0);
        assertEquals(Pattern.HAIRPIN_SELF, f.pattern());
        assertEquals(expected, RpFilterTest.judged(f, context, Cause.HAIRPIN_MODE_OFF).orElseThrow().verdict(), name);
    }
}
