package io.pcapdiag.causes;

import static io.pcapdiag.testing.PacketScript.S;
import static io.pcapdiag.testing.PacketScript.synPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.context.Context;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.testing.PacketScript;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code rp-filter} as the kernel decides it (fib_validate_source, net/ipv4/fib_frontend.c): the mode in force is
 * max(conf.all, conf.DEV) on the device the SYN entered IPv4 by (the bridge for a bridge port); strict drops when
 * the route back leaves by another device, loose only when there is none; the node's own packets are never checked;
 * IPv6 has none. One row per case, an unanswered SYN to the node each, judged against {@link TestNode}'s facts.
 */
class RpFilterTest {
    private static final String OUTSIDE = "192.0.2.10";   // routed back by eth1 when that route is set
    private static final String NEIGHBOUR = "198.51.100.7"; // on eth0's own subnet
    private static final String NODE = "198.51.100.2";     // eth0's address: a NodePort is dialed there
    private static final String POD = "10.244.0.18";

    /** How the capture shows the SYN: on an interface index (SLL2), a named interface (pcapng, --label) or none. */
    record Seen(int ifIndex, String name) {
        static Seen onIndex(int i) {
            return new Seen(i, null);
        }

        static Seen named(String n) {
            return new Seen(-1, n);
        }

        static Seen nowhere() {
            return new Seen(-1, null);
        }
    }

    static Stream<Arguments> table() {
        UnaryOperator<TestNode> asymmetric = n -> n.route("0.0.0.0/0", "198.51.100.1", "eth0").route("192.0.2.0/24", null, "eth1")
                .route("198.51.100.0/24", null, "eth0").route("10.244.0.0/24", null, "cni0");
        return Stream.of(
                row("strict on the ingress interface, route back by another: dropped", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0", 1)), Verdict.CONFIRMED),
                row("strict in conf.all alone, route back by another: max(all, eth0) is strict", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 1, "eth0", 0)), Verdict.CONFIRMED),
                row("strict with a symmetric route: passes", NEIGHBOUR, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 1, "eth0", 1)), Verdict.CONTRADICTED),
                row("loose with a route back (by another interface): passes", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 2, "eth0", 0)), Verdict.CONTRADICTED),
                row("loose with no route back at all: dropped", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> n.route("198.51.100.0/24", null, "eth0").rpFilter(Map.of("all", 0, "eth0", 2)), Verdict.CONFIRMED),
                row("strict in conf.all, loose on eth0: the higher value, loose, is in force", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 1, "eth0", 2)), Verdict.CONTRADICTED),
                row("strict on another interface than the ingress one: eth0 does not check", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0", 0, "eth1", 1)), Verdict.CONTRADICTED),
                row("off everywhere", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0", 0)), Verdict.CONTRADICTED),
                row("strict on a VLAN interface, its key written eth0/100 as sysctl does", OUTSIDE, "203.0.113.2", Seen.onIndex(8),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0.100", 1)), Verdict.CONFIRMED),
                row("conf.eth0 unknown, conf.all strict: strict or loose, not 0", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 1)), Verdict.CONSISTENT),
                row("conf.all unknown, conf.eth0 off: the mode is unknown, not 0", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("eth0", 0)), Verdict.CONSISTENT),
                row("mode unknown but the route back leaves by the ingress interface: no mode drops it", NEIGHBOUR, NODE,
                        Seen.onIndex(6), n -> asymmetric.apply(n), Verdict.CONTRADICTED),
                row("strict, routes unknown", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> n.routesUnknown().rpFilter(Map.of("all", 1, "eth0", 1)), Verdict.CONSISTENT),
                row("a bridge port's SYN enters IPv4 on the bridge: strict on cni0, route back by cni0", POD, "10.96.10.80",
                        Seen.onIndex(4), n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "veth-a", 0, "cni0", 1)),
                        Verdict.CONTRADICTED),
                row("a bridge port's own conf is not the one in force: strict on veth-a, cni0 off", POD, "10.96.10.80",
                        Seen.onIndex(4), n -> n.route("0.0.0.0/0", "198.51.100.1", "eth0")
                                .rpFilter(Map.of("all", 0, "veth-a", 1, "cni0", 0)), Verdict.CONTRADICTED),
                row("one-interface pcap: ingress inferred from the interface holding the dialed address", OUTSIDE, NODE,
                        Seen.nowhere(), n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0", 1)), Verdict.CONFIRMED),
                row("one-interface pcap dialing no local address: the ingress is unknown", OUTSIDE, "10.96.10.80",
                        Seen.nowhere(), n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0", 1)), Verdict.CONSISTENT),
                row("one-interface pcap, loose in conf.all: no ingress needed, there is a route back", OUTSIDE, "10.96.10.80",
                        Seen.nowhere(), n -> asymmetric.apply(n).rpFilter(Map.of("all", 2, "eth0", 0)), Verdict.CONTRADICTED),
                row("one-interface pcap dialing no local address, no interface filters: no ingress needed", OUTSIDE,
                        "10.96.10.80", Seen.nowhere(), n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "lo", 0, "cni0", 0,
                                "kube-ipvs0", 0, "veth-a", 0, "veth-b", 0, "eth0", 0, "eth1", 0, "eth0.100", 0)), Verdict.CONTRADICTED),
                row("interface named by the capture (pcapng IDB, --label)", OUTSIDE, NODE, Seen.named("eth0"),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0", 1)), Verdict.CONFIRMED),
                row("TcpExtIPReversePathFilter rose over the sample", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 0, "eth0", 0)).nstatRise(RpFilter.DROPS, 3), Verdict.CONFIRMED),
                row("the client is the node's own address: its packets are never checked", "192.0.2.2", NODE, Seen.onIndex(6),
                        n -> asymmetric.apply(n).rpFilter(Map.of("all", 1, "eth0", 1)), Verdict.CONTRADICTED),
                row("mode unknown, no route back: strict and loose would both drop, but is either on?", OUTSIDE, NODE,
                        Seen.onIndex(6), n -> n, Verdict.CONSISTENT),
                row("no node facts about rp_filter, routes or counters at all", OUTSIDE, NODE, Seen.onIndex(6),
                        n -> n.routesUnknown().set("sample", Map.of("unknown", "not sampled")), Verdict.UNKNOWN));
    }

    private static Arguments row(String name, String client, String target, Seen seen, UnaryOperator<TestNode> node, Verdict v) {
        return Arguments.of(name, client, target, seen, node, v);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void verdict(String name, String client, String target, Seen seen, UnaryOperator<TestNode> node, Verdict expected) {
        Context context = node.apply(new TestNode()).context();
        Finding f = unanswered(client, target, seen, context);
        CauseVerdict v = judged(f, context, Cause.RP_FILTER).orElseThrow();
        assertEquals(expected, v.verdict(), name + ": " + v.facts());
        if (seen.equals(Seen.nowhere()) && NODE.equals(target)) {
            assertTrue(v.facts().stream().anyMatch(x -> x.text().contains("inferred")), "says the ingress was inferred: " + v.facts());
        }
    }

    @org.junit.jupiter.api.Test
    void ipv6HasNoRpFilter() {
        Context context = new TestNode().rpFilter(Map.of("all", 1, "eth0", 1)).context();
        Finding f = unanswered("2001:db8::10", "2001:db8:1::2", Seen.onIndex(6), context);
        assertTrue(judged(f, context, Cause.RP_FILTER).isEmpty(), "rp-filter is no candidate for IPv6");
    }

    static Finding unanswered(String client, String target, Seen seen, Context context) {
        PacketScript s = new PacketScript(List.of(context));
        byte[] syn = synPacket(client, 40001, target, 30080, 1000);
        for (long t : new long[] {0, S}) {
            if (seen.ifIndex() >= 0) {
                s.packetOn(t, syn, seen.ifIndex());
            } else {
                s.rawPacket(t, syn, seen.name());
            }
        }
        List<Finding> fs = s.findings();
        assertEquals(1, fs.size());
        assertEquals(Pattern.NO_RESPONSE, fs.get(0).pattern());
        return fs.get(0);
    }

    static Optional<CauseVerdict> judged(Finding f, Context context, Cause cause) {
        return Causes.judge(f, context).stream().filter(c -> c.cause() == cause).findFirst();
    }
}
