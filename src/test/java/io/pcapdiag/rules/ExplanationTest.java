package io.pcapdiag.rules;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static io.pcapdiag.testing.PacketScript.synPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.context.LbIps;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.IcmpTable;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PacketScript;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Sighting;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Every sentence an explanation states must rest on what it says it rests on: a seen sentence on packets
 * of the finding's own attempts, a fact on a fact that decided the pattern, a cited one on a citation.
 * And per pattern, what the capture does not show is not said: a run without the DNAT'ed copy, the
 * client's RST or the retransmissions tells none of them.
 */
class ExplanationTest {
    private static final String POD = "10.244.0.18";
    private static final String SVC = "10.96.10.80";
    private static final String BACKEND = "10.244.0.19";
    private static final int ISN = 1000;

    /** The only diagnosis of a script, checked for the general rules of honesty. */
    private static Diagnosis only(PacketScript s, Pattern expected) {
        List<Diagnosis> ds = s.diagnoses();
        assertEquals(1, ds.size(), "findings: " + ds.stream().map(d -> d.finding().pattern().id()).toList());
        Diagnosis d = ds.get(0);
        assertEquals(expected, d.finding().pattern());
        checkBases(d);
        return d;
    }

    private static void checkBases(Diagnosis d) {
        List<Sighting> own = new ArrayList<>();
        for (Attempt a : d.finding().examples()) {
            own.add(a.syn());
            for (Sighting x : new Sighting[] {a.natCopy(), a.answer(), a.clientReset()}) {
                if (x != null) {
                    own.add(x);
                }
            }
            if (d.finding().pattern().connection()) {
                own.addAll(a.established().kept());
            }
        }
        List<Statement> all = new ArrayList<>(d.explanation().story());
        all.addAll(d.explanation().observations());
        for (Statement st : all) {
            switch (st.kind()) {
                case SEEN -> st.packets().forEach(p -> assertTrue(own.stream().anyMatch(o -> o.frame == p.frame),
                        "'" + st.text() + "' cites frame " + p.frame + ", which is none of the finding's packets"));
                case FACT -> assertTrue(d.finding().facts().stream().anyMatch(f -> f.text().equals(st.text())
                        && f.source().id().equals(st.basis())), "'" + st.text() + "' is no fact that decided the pattern");
                case CITED -> assertFalse(st.basis() == null || st.basis().isBlank(), "'" + st.text() + "' cites nothing");
                case LIKELY -> assertTrue(st.packets().isEmpty(), "a likely reading cites no packet as proof");
            }
        }
        assertFalse(d.explanation().story().stream().noneMatch(st -> st.kind() == Statement.Kind.SEEN),
                "an explanation starts from what was seen");
    }

    /** The text of every statement of a kind, story and observations. */
    private static String said(Diagnosis d, Statement.Kind kind) {
        List<Statement> all = new ArrayList<>(d.explanation().story());
        all.addAll(d.explanation().observations());
        StringBuilder sb = new StringBuilder();
        all.stream().filter(s -> s.kind() == kind).forEach(s -> sb.append(s.text()).append('\n'));
        return sb.toString();
    }

    private static PacketScript end(PacketScript s) {
        return s.syn(10 * S, "192.0.2.250", 1, "192.0.2.251", 1, 1).synAck(10 * S + MS, "192.0.2.251", 1, "192.0.2.250", 1, 7, 2);
    }

    // ---------------------------------------------------------------- nat-bypass-reply

    @Test
    void aBypassWithEveryPacketTellsEachOfThem() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN)
                .syn(50_000, POD, 40001, BACKEND, 80, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1)
                .rst(110_000, POD, 40001, BACKEND, 80, ISN + 1, 0, false)
                .syn(S, POD, 40001, SVC, 8080, ISN);
        String seen = said(only(s, Pattern.NAT_BYPASS_REPLY), Statement.Kind.SEEN);
        assertTrue(seen.contains("DNAT sent the SYN on to 10.244.0.19:80"), seen);
        assertTrue(seen.contains("answered it with RST"), seen);
        assertTrue(seen.contains("retransmitted its SYN once"), seen);
    }

    @Test
    void aBypassWithoutDnatCopyRstOrRetransmissionClaimsNone() {
        // The pod's own eth0 never sees the DNAT'ed copy; this client did not reset and the capture ended.
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1);
        String seen = said(only(end(s), Pattern.NAT_BYPASS_REPLY), Statement.Kind.SEEN);
        assertFalse(seen.contains("DNAT"), seen);
        assertFalse(seen.contains("RST"), seen);
        assertFalse(seen.contains("retransmit"), seen);
        assertTrue(seen.contains("came back from 10.244.0.19:80, not from 10.96.10.80:8080"), seen);
    }

    // ---------------------------------------------------------------- lb-probe-dropped

    private static PacketScript probes(PacketScript s) {
        return s.syn(2 * S, "203.0.113.10", 41001, "198.51.100.2", 30080, 11)
                .syn(2 * S + 300 * MS, "203.0.113.10", 41002, "198.51.100.2", 30080, 22)
                .syn(3 * S, "203.0.113.10", 41001, "198.51.100.2", 30080, 11)
                .syn(3 * S + 300 * MS, "203.0.113.10", 41002, "198.51.100.2", 30080, 22);
    }

    @Test
    void aProbeKnownOnlyFromLbIpDoesNotClaimTheTargetAnswersOthers() {
        long[] vip = Ip.parse("203.0.113.10");
        Diagnosis d = only(end(probes(new PacketScript(List.of(new LbIps(Set.of(Endpoint.address(vip[0], vip[1]))))))),
                Pattern.LB_PROBE_DROPPED);
        String all = said(d, Statement.Kind.SEEN) + said(d, Statement.Kind.FACT);
        assertFalse(all.contains("198.51.100.2:30080 answered"), all);
        assertTrue(said(d, Statement.Kind.FACT).contains("is a LoadBalancer ingress IP (--lb-ip)"), all);
    }

    @Test
    void aProbeToATargetThatAnswersOthersCitesTheAnsweredClient() {
        PacketScript s = probes(new PacketScript().syn(0, "192.0.2.50", 40001, "198.51.100.2", 30080, 5)
                .synAck(MS, "198.51.100.2", 30080, "192.0.2.50", 40001, 9, 6));
        String facts = said(only(end(s), Pattern.LB_PROBE_DROPPED), Statement.Kind.FACT);
        assertTrue(facts.contains("198.51.100.2:30080 answered 192.0.2.50 in this capture (SYN #1)"), facts);
    }

    // ---------------------------------------------------------------- vip-local-reject

    @Test
    void theTtlVerdictFollowsTheTtlSeen() {
        PacketScript local = new PacketScript().syn(0, POD, 40001, "203.0.113.10", 443, ISN)
                .unreachable(100_000, "203.0.113.10", POD, 3, synPacket(POD, 40001, "203.0.113.10", 443, ISN), 64);
        assertTrue(said(only(local, Pattern.VIP_LOCAL_REJECT), Statement.Kind.SEEN).contains("TTL 64 is an initial value"));
        PacketScript far = new PacketScript().syn(0, POD, 40001, "203.0.113.10", 443, ISN)
                .unreachable(20 * MS, "203.0.113.10", POD, 3, synPacket(POD, 40001, "203.0.113.10", 443, ISN), 61);
        String seen = said(only(far, Pattern.VIP_LOCAL_REJECT), Statement.Kind.SEEN);
        assertTrue(seen.contains("TTL 61 is not an initial value"), seen);
        assertTrue(seen.contains("slower than a local answer"), seen);
    }

    // ---------------------------------------------------------------- hairpin-self, no-response, refused, icmp

    @Test
    void hairpinSelfStatesTheDnatFactThatMadeIt() {
        PacketScript s = new PacketScript().syn(0, POD, 40002, SVC, 8080, ISN)
                .syn(40_000, POD, 40002, POD, 80, ISN)
                .syn(S, POD, 40002, SVC, 8080, ISN);
        Diagnosis d = only(end(s), Pattern.HAIRPIN_SELF);
        assertTrue(said(d, Statement.Kind.FACT).contains("the capture shows 10.96.10.80:8080 DNAT'ed to 10.244.0.18:80 (#2)"),
                said(d, Statement.Kind.FACT));
    }

    @Test
    void noResponseTellsTheDnatOnlyWhenItWasSeen() {
        PacketScript plain = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN).syn(S, POD, 40001, BACKEND, 80, ISN);
        assertFalse(said(only(plain, Pattern.NO_RESPONSE), Statement.Kind.SEEN).contains("DNAT"));
        PacketScript nat = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN).syn(40_000, POD, 40001, BACKEND, 80, ISN)
                .syn(S, POD, 40001, SVC, 8080, ISN);
        assertTrue(said(only(nat, Pattern.NO_RESPONSE), Statement.Kind.SEEN).contains("DNAT sent the SYN on to 10.244.0.19:80"));
    }

    @Test
    void aRefusalFromTheTargetAndOneFromADnatedBackendAreToldApart() {
        PacketScript direct = new PacketScript().syn(0, POD, 40001, BACKEND, 8081, ISN)
                .rst(100_000, BACKEND, 8081, POD, 40001, 0, ISN + 1, true);
        Diagnosis d = only(direct, Pattern.CONNECTION_REFUSED);
        assertTrue(said(d, Statement.Kind.LIKELY).contains("Nothing listens on port 8081 there"));
        PacketScript nat = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN).syn(40_000, POD, 40001, BACKEND, 81, ISN)
                .rst(100_000, BACKEND, 81, POD, 40001, 0, ISN + 1, true);
        Diagnosis n = only(nat, Pattern.CONNECTION_REFUSED);
        assertTrue(said(n, Statement.Kind.SEEN).contains("DNAT had sent the SYN on to 10.244.0.19:81"), said(n, Statement.Kind.SEEN));
        assertTrue(said(n, Statement.Kind.LIKELY).contains("targetPort"));
    }

    /**
     * A server bound to 127.0.0.1 answers a SYN to 127.0.0.1: a refusal on loopback is no wrong bind address but nothing
     * listening in the dialer's own namespace (in a pod, a sidecar not started yet); an IPv6 one may be an IPv4-only bind.
     */
    @Test
    void aRefusalOnLoopbackOrIpv6SaysWhatABindAddressCanAndCannotExplain() {
        for (String lo : new String[] {"127.0.0.1", "127.3.2.1", "::1"}) {
            Diagnosis d = only(new PacketScript().syn(0, lo, 40001, lo, 15000, ISN)
                    .rst(100_000, lo, 15000, lo, 40001, 0, ISN + 1, true), Pattern.CONNECTION_REFUSED);
            String likely = said(d, Statement.Kind.LIKELY);
            assertTrue(likely.contains("Nothing listens on port 15000 in the network namespace that dialed it"), likely);
            assertFalse(likely.contains("instead of"), likely);
            assertEquals(List.of("start the container that serves port 15000 before the one that dials it: a native sidecar"
                    + " (an init container with restartPolicy: Always)"),
                    d.explanation().remedies().stream().map(r -> r.fix()).toList());
            assertFalse(String.join(" ", d.explanation().checks()).contains("svc"), "no Service is dialed on loopback");
        }
        Diagnosis v6 = only(new PacketScript().syn(0, "fd00:10:244::18", 40001, "fd00:10:244::19", 8081, ISN)
                .rst(100_000, "fd00:10:244::19", 8081, "fd00:10:244::18", 40001, 0, ISN + 1, true), Pattern.CONNECTION_REFUSED);
        assertTrue(said(v6, Statement.Kind.LIKELY).contains("Nothing listens on port 8081 there, or the server listens on"
                + " another address (::1, or 0.0.0.0 for IPv4 only, instead of ::)."), said(v6, Statement.Kind.LIKELY));
        Diagnosis v4 = only(new PacketScript().syn(0, POD, 40001, "128.0.0.1", 8081, ISN)
                .rst(100_000, "128.0.0.1", 8081, POD, 40001, 0, ISN + 1, true), Pattern.CONNECTION_REFUSED);
        assertTrue(said(v4, Statement.Kind.LIKELY).contains("(127.0.0.1 instead of 0.0.0.0)."), said(v4, Statement.Kind.LIKELY));
        assertTrue(String.join(" ", v4.explanation().checks()).contains("kubectl get svc,endpointslices"));
    }

    /** The sentence after "answered with ICMP ..." follows the code: no route, no neighbour, a loop, or the rest. */
    @Test
    void anIcmpErrorOnThePathIsExplainedByItsCode() {
        String router = "10.244.1.0";
        String far = "10.244.7.9";
        byte[] syn = synPacket(POD, 40001, far, 8080, ISN);
        BiFunction<Integer, Integer, Diagnosis> v4 = (type, code) -> only(new PacketScript()
                .syn(0, POD, 40001, far, 8080, ISN)
                .packet(100_000, Ipv4Builder.ipv4(router, POD).ttl(63)
                        .icmp(IcmpBuilder.error(type, code, syn, syn.length)).build(),
                        LinkBuilder.MAC_B), Pattern.ICMP_UNREACHABLE);

        Diagnosis net = v4.apply(3, 0);
        assertTrue(said(net, Statement.Kind.LIKELY).startsWith(router + " has no route to " + far + ":"), said(net, Statement.Kind.LIKELY));
        assertTrue(net.explanation().story().stream().anyMatch(st -> "RFC 1812 5.2.7.1; RFC 4443 3.1".equals(st.basis())));
        assertTrue(net.explanation().checks().get(0).startsWith("ip route get " + far));

        Diagnosis host = v4.apply(3, 1);
        assertTrue(said(host, Statement.Kind.LIKELY).startsWith("No host holds " + far + " on " + router + "'s link"),
                said(host, Statement.Kind.LIKELY));
        assertTrue(host.explanation().checks().get(0).startsWith("ip neigh show " + far));

        Diagnosis loop = v4.apply(11, 0);
        assertTrue(said(loop, Statement.Kind.LIKELY).startsWith("The SYN went round a routing loop until its TTL ran out at "
                + router), said(loop, Statement.Kind.LIKELY));
        assertTrue(loop.explanation().checks().get(0).startsWith("traceroute -n -T -p 8080 " + far));

        Diagnosis reassembly = v4.apply(11, 1);
        assertEquals("Something on the path could not deliver it (" + IcmpTable.name(4, 11, 1) + ").\n",
                said(reassembly, Statement.Kind.LIKELY));
        for (Diagnosis d : List.of(net, host, loop)) {
            assertFalse(said(d, Statement.Kind.LIKELY).contains("ARP/ND"), said(d, Statement.Kind.LIKELY));
        }

        Diagnosis v6host = only(new PacketScript().syn(0, "fd00:10:244::18", 40001, "fd00:10:244:7::9", 8080, ISN)
                .unreachable(100_000, "fd00:10:244:1::", "fd00:10:244::18", 3,
                        synPacket("fd00:10:244::18", 40001, "fd00:10:244:7::9", 8080, ISN), 63), Pattern.ICMP_UNREACHABLE);
        assertTrue(said(v6host, Statement.Kind.LIKELY).startsWith("No host holds fd00:10:244:7::9"), said(v6host, Statement.Kind.LIKELY));
    }

    /** How many of the target's attempts were delayed, in words that fit one, all, or some of them. */
    @Test
    void aDelayedConnectSaysHowManyOfTheTargetsAttemptsWereDelayed() {
        PacketScript one = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN).syn(S, POD, 40001, BACKEND, 80, ISN)
                .synAck(S + MS, BACKEND, 80, POD, 40001, 5000, ISN + 1);
        assertTrue(said(only(one, Pattern.DELAYED_CONNECT), Statement.Kind.SEEN)
                .contains("It was the only attempt to 10.244.0.19:80 in this capture."), said(only(one, Pattern.DELAYED_CONNECT), Statement.Kind.SEEN));
        PacketScript both = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN).syn(S, POD, 40001, BACKEND, 80, ISN)
                .synAck(S + MS, BACKEND, 80, POD, 40001, 5000, ISN + 1)
                .syn(2 * S, POD, 40002, BACKEND, 80, ISN + 7).syn(3 * S, POD, 40002, BACKEND, 80, ISN + 7)
                .synAck(3 * S + MS, BACKEND, 80, POD, 40002, 9000, ISN + 8);
        assertTrue(said(only(both, Pattern.DELAYED_CONNECT), Statement.Kind.SEEN)
                .contains("All 2 attempts to 10.244.0.19:80 in this capture were delayed like this."));
        PacketScript some = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN).syn(S, POD, 40001, BACKEND, 80, ISN)
                .synAck(S + MS, BACKEND, 80, POD, 40001, 5000, ISN + 1)
                .syn(2 * S, POD, 40002, BACKEND, 80, ISN + 7).synAck(2 * S + MS, BACKEND, 80, POD, 40002, 9000, ISN + 8);
        assertTrue(said(only(some, Pattern.DELAYED_CONNECT), Statement.Kind.SEEN)
                .contains("1 of the 2 attempts to 10.244.0.19:80 in this capture was delayed like this."));
    }

    /** Nothing answered anywhere in a capture of many attempts to many targets: it may hold one direction only. */
    @Test
    void aCaptureWhereNothingIsAnsweredSaysItMayHoldOneDirectionOnly() {
        IntFunction<PacketScript> unanswered = targets -> {
            PacketScript s = new PacketScript();
            for (int i = 0; i < 12; i++) { // each SYN retransmitted: decided unanswered
                s.syn(i * MS, POD, 40001 + i, "10.244.7." + (1 + i % targets), 80, ISN + i)
                        .syn(S + i * MS, POD, 40001 + i, "10.244.7." + (1 + i % targets), 80, ISN + i);
            }
            return s;
        };
        List<Diagnosis> three = unanswered.apply(3).diagnoses();
        assertEquals(3, three.size());
        for (Diagnosis d : three) {
            checkBases(d);
            assertTrue(said(d, Statement.Kind.SEEN).contains("None of the 12 attempts this capture decided, to 3 targets, got"
                    + " any answer, and no SYN-ACK, RST or ICMP error about a TCP connection came for any other: the capture"
                    + " holds none."), said(d, Statement.Kind.SEEN));
            assertTrue(said(d, Statement.Kind.LIKELY).startsWith("The capture holds one direction only"), said(d, Statement.Kind.LIKELY));
            assertTrue(said(d, Statement.Kind.LIKELY).contains("Otherwise the SYN or its answer was dropped"));
        }
        List<Diagnosis> two = unanswered.apply(2).diagnoses();
        assertEquals(2, two.size());
        for (Diagnosis d : two) { // a target or two down: no word of directions
            assertFalse(said(d, Statement.Kind.LIKELY).contains("one direction"), said(d, Statement.Kind.LIKELY));
        }
        // A SYN-ACK whose SYN the capture missed: the other direction is in it.
        List<Diagnosis> unmatched = unanswered.apply(3).synAck(2 * S, BACKEND, 80, POD, 45000, 7000, 123).diagnoses();
        assertEquals(3, unmatched.size());
        for (Diagnosis d : unmatched) {
            assertFalse(said(d, Statement.Kind.LIKELY).contains("one direction"), said(d, Statement.Kind.LIKELY));
        }
        PacketScript oneAnswered = unanswered.apply(3).syn(2 * S, POD, 41000, BACKEND, 80, ISN + 99)
                .synAck(2 * S + MS, BACKEND, 80, POD, 41000, 7000, ISN + 100);
        List<Diagnosis> ds = oneAnswered.diagnoses();
        assertEquals(3, ds.size());
        for (Diagnosis d : ds) {
            assertFalse(said(d, Statement.Kind.LIKELY).contains("one direction"), said(d, Statement.Kind.LIKELY));
            assertTrue(said(d, Statement.Kind.LIKELY).startsWith("The SYN or its answer was dropped"));
        }
    }

    @Test
    void everyPatternOfTheTableHasAnExplanation() {
        for (Pattern p : Pattern.values()) {
            if (Rules.rule(p) == null) {
                fail(p.id() + " has no rule");
            }
        }
    }

    // ---------------------------------------------------------------- after the handshake

    @Test
    void aBlackHoleTellsTheSizeTheRetransmissionsAndThatNoIcmpWasCaptured() {
        PacketScript s = new PacketScript();
        ConnectionRulesTest.Conn k = ConnectionRulesTest.established(s, ConnectionRulesTest.B, ConnectionRulesTest.BP, 5000);
        int big = k.serverData(10 * MS, 1448);
        k.serverAgain(220 * MS, big, 1448);
        k.serverAgain(640 * MS, big, 1448);
        k.clientFin(3 * S);
        Diagnosis d = only(s, Pattern.PMTU_BLACKHOLE);
        String seen = said(d, Statement.Kind.SEEN);
        assertTrue(seen.contains("sent 1448 bytes of data in a 1488-byte packet and sent the same segment again 2 times"), seen);
        assertTrue(seen.contains("while its segments of up to 200 bytes were"), seen);
        assertTrue(seen.contains("No ICMP \"fragmentation needed\" or \"packet too big\" quoting it was captured."), seen);
        assertEquals(List.of("syn", "segment", "resend"), d.evidence().stream().map(e -> e.role().id()).toList());
    }

    @Test
    void aResetAfterReplyTellsTheWrongSourceAndTheClientsReset() {
        PacketScript s = new PacketScript();
        ConnectionRulesTest.Conn k = ConnectionRulesTest.established(s, ConnectionRulesTest.V, ConnectionRulesTest.VP, 5000);
        s.packet(S, k.fromServer(ConnectionRulesTest.B, ConnectionRulesTest.BP, k.sv, 200, k.c,
                io.pcapdiag.testing.TcpBuilder.ACK), LinkBuilder.MAC_B);
        s.packet(S + 10_000, Ipv4Builder.ipv4(ConnectionRulesTest.C, ConnectionRulesTest.B).tcp(io.pcapdiag.testing.TcpBuilder
                .tcp(ConnectionRulesTest.CP, ConnectionRulesTest.BP).seq(k.c).flags(io.pcapdiag.testing.TcpBuilder.RST)).build(),
                LinkBuilder.MAC_A);
        Diagnosis d = only(s, Pattern.RESET_AFTER_REPLY);
        String seen = said(d, Statement.Kind.SEEN);
        assertTrue(seen.contains("a segment of the connection reached the client from 10.244.1.20:80, not from 10.96.0.20:8080"), seen);
        assertTrue(seen.contains("The client answered it with RST to 10.244.1.20:80."), seen);
        assertFalse(seen.contains("DNAT"), "no DNAT'ed copy was captured: " + seen);
        assertEquals(List.of("syn", "bypass", "client-rst"), d.evidence().stream().map(e -> e.role().id()).toList());
    }

    @Test
    void aGoneEndpointTellsTheUnansweredSegmentAndTheIcmp() {
        PacketScript s = new PacketScript();
        ConnectionRulesTest.Conn k = ConnectionRulesTest.established(s, ConnectionRulesTest.V, ConnectionRulesTest.VP, 5000);
        int hb = k.c;
        k.clientData(500 * MS, 5);
        for (long t : new long[] {700, 900, 1300}) {
            s.packet(t * MS, k.fromClient(hb, 5, io.pcapdiag.testing.TcpBuilder.ACK, 502), LinkBuilder.MAC_A);
        }
        s.unreachable(2 * S, ConnectionRulesTest.V, ConnectionRulesTest.C, 1,
                k.fromClient(hb, 5, io.pcapdiag.testing.TcpBuilder.ACK, 502), 64);
        Diagnosis d = only(s, Pattern.RESET_BY_GONE_ENDPOINT);
        String seen = said(d, Statement.Kind.SEEN);
        assertTrue(seen.contains("the client's segment of 5 bytes went unanswered: it was sent again 3 times."), seen);
        assertTrue(seen.contains("ICMP host unreachable from 10.96.0.20 quoted the client's segment"), seen);
        assertEquals(List.of("syn", "segment", "resend", "icmp"), d.evidence().stream().map(e -> e.role().id()).toList());
    }
}
