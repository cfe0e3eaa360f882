package io.pcapdiag.rules;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static io.pcapdiag.testing.PacketScript.synPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.LbIps;
import io.pcapdiag.context.Source;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.testing.PacketScript;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * One test per row of docs/design.md's pattern table, positive and negative (what must NOT match), through
 * the whole pipeline: packets in, findings out. Each finding is shown as "pattern client -> target by
 * responder xattempts".
 */
class PatternTableTest {
    private static final String POD = "10.244.0.18";
    private static final String OTHER_POD = "10.244.0.20";
    private static final String BACKEND = "10.244.0.19";
    private static final String VIP = "203.0.113.10";
    private static final String SVC = "10.96.10.80";
    private static final String GW = "10.244.0.1";
    private static final int ISN = 1000;

    private static List<String> findings(PacketScript s) {
        return s.findings().stream().map(f -> f.pattern().id() + " " + f.client() + " -> " + f.target() + " by "
                + f.responder() + " x" + f.attempts()).toList();
    }

    private static Endpoint address(String ip) {
        long[] a = Ip.parse(ip);
        return Endpoint.address(a[0], a[1]);
    }

    /** Capture time after every attempt is decided (no packet stamped later: the end of capture decides). */
    private static PacketScript end(PacketScript s) {
        return s.syn(10 * S, "192.0.2.250", 1, "192.0.2.251", 1, 1).synAck(10 * S + MS, "192.0.2.251", 1, "192.0.2.250", 1, 7, 2);
    }

    // ---------------------------------------------------------------- vip-local-reject

    @Test
    void vipLocalRejectIsPortUnreachableFromTheDialedAddressItself() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, VIP, 443, ISN)
                .unreachable(100_000, VIP, POD, 3, synPacket(POD, 40001, VIP, 443, ISN), 64);
        assertEquals(List.of("vip-local-reject 10.244.0.18 -> 203.0.113.10:443 by 203.0.113.10 x1"), findings(s));
    }

    @Test
    void vipLocalRejectInIpv6IsCode4FromTheVip() {
        String pod = "2001:db8:244::18";
        String vip = "2001:db8:113::10";
        PacketScript s = new PacketScript().syn(0, pod, 40001, vip, 443, ISN)
                .unreachable(100_000, vip, pod, 4, synPacket(pod, 40001, vip, 443, ISN), 64);
        assertEquals(List.of("vip-local-reject 2001:db8:244::18 -> [2001:db8:113::10]:443 by 2001:db8:113::10 x1"), findings(s));
    }

    @Test
    void portUnreachableFromAnotherAddressIsNoVipLocalReject() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 80, ISN)
                .unreachable(100_000, GW, POD, 3, synPacket(POD, 40001, SVC, 80, ISN), 64);
        assertEquals(List.of("icmp-unreachable 10.244.0.18 -> 10.96.10.80:80 by 10.244.0.1 x1"), findings(s));
    }

    @Test
    void anotherIcmpErrorFromTheVipItselfIsNoVipLocalReject() {
        // Host unreachable from the dialed address itself: not the port-unreachable a node answering for a VIP sends.
        PacketScript s = new PacketScript().syn(0, POD, 40001, VIP, 443, ISN)
                .unreachable(100_000, VIP, POD, 1, synPacket(POD, 40001, VIP, 443, ISN), 64);
        assertEquals(List.of("icmp-unreachable 10.244.0.18 -> 203.0.113.10:443 by 203.0.113.10 x1"), findings(s));
    }

    // ---------------------------------------------------------------- nat-bypass-reply

    @Test
    void natBypassReplyIsASynAckFromAnotherAddressThanTheOneDialed() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN)
                .syn(50_000, POD, 40001, BACKEND, 80, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1)
                .rst(110_000, POD, 40001, BACKEND, 80, ISN + 1, 0, false)
                .syn(S, POD, 40001, SVC, 8080, ISN);
        assertEquals(List.of("nat-bypass-reply 10.244.0.18 -> 10.96.10.80:8080 by 10.244.0.19:80 x1"), findings(s));
    }

    @Test
    void aTranslatedSynAckBesideTheUntranslatedOneIsNoBypass() {
        // br_netfilter on: -i any holds the backend's untranslated SYN-ACK on its veth and the translated one on the client's.
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1)
                .synAck(110_000, SVC, 8080, POD, 40001, 5000, ISN + 1);
        assertEquals(List.of(), findings(end(s)));
    }

    @Test
    void aSynAckThatAcknowledgesAnotherIsnAnswersNothing() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 7)
                .syn(S, POD, 40001, SVC, 8080, ISN);
        assertEquals(List.of("no-response 10.244.0.18 -> 10.96.10.80:8080 by null x1"), findings(end(s)));
    }

    // ---------------------------------------------------------------- hairpin-self

    @Test
    void hairpinSelfIsNoAnswerWhenTheCaptureShowsTheServiceDnatedToTheClient() {
        PacketScript s = new PacketScript().syn(0, POD, 40002, SVC, 8080, ISN)
                .syn(40_000, POD, 40002, POD, 80, ISN)   // the DNAT'ed copy, to the client itself
                .syn(S, POD, 40002, SVC, 8080, ISN);
        assertEquals(List.of("hairpin-self 10.244.0.18 -> 10.96.10.80:8080 by null x1"), findings(end(s)));
    }

    @Test
    void hairpinSelfNeedsOnlyAnotherClientsDnatToTheClient() {
        // Pod B reaches the Service and lands on pod A; pod A's own two attempts get nothing. Before the
        // rule existed this read as lb-probe-dropped (two client ports, a target that answers others).
        PacketScript s = new PacketScript().syn(0, OTHER_POD, 40001, SVC, 8080, 7)
                .syn(40_000, OTHER_POD, 40001, POD, 80, 7)
                .synAck(80_000, SVC, 8080, OTHER_POD, 40001, 9, 8)
                .syn(100 * MS, POD, 40002, SVC, 8080, ISN)
                .syn(400 * MS, POD, 40003, SVC, 8080, ISN + 50)
                .syn(1100 * MS, POD, 40002, SVC, 8080, ISN)
                .syn(1400 * MS, POD, 40003, SVC, 8080, ISN + 50);
        assertEquals(List.of("hairpin-self 10.244.0.18 -> 10.96.10.80:8080 by null x2"), findings(end(s)));
    }

    @Test
    void noAnswerAfterDnatToAnotherBackendIsNoHairpin() {
        PacketScript s = new PacketScript().syn(0, POD, 40002, SVC, 8080, ISN)
                .syn(40_000, POD, 40002, BACKEND, 80, ISN)
                .syn(S, POD, 40002, SVC, 8080, ISN);
        assertEquals(List.of("no-response 10.244.0.18 -> 10.96.10.80:8080 by null x1"), findings(end(s)));
    }

    @Test
    void aBypassedReplyFromTheClientItselfIsHairpinSelf() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN)
                .syn(40_000, POD, 40001, POD, 80, ISN)
                .synAck(100_000, POD, 80, POD, 40001, 5000, ISN + 1)
                .syn(S, POD, 40001, SVC, 8080, ISN);
        assertEquals(List.of("hairpin-self 10.244.0.18 -> 10.96.10.80:8080 by 10.244.0.18:80 x1"), findings(end(s)));
    }

    @Test
    void aBypassedReplyFromAnotherBackendStaysNatBypassEvenWhenTheClientIsABackendToo() {
        PacketScript s = new PacketScript().syn(0, OTHER_POD, 40009, SVC, 8080, 7)
                .syn(40_000, OTHER_POD, 40009, POD, 80, 7)
                .synAck(80_000, SVC, 8080, OTHER_POD, 40009, 9, 8)
                .syn(S, POD, 40001, SVC, 8080, ISN)
                .syn(S + 40_000, POD, 40001, BACKEND, 80, ISN)
                .synAck(S + 100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1);
        assertEquals(List.of("nat-bypass-reply 10.244.0.18 -> 10.96.10.80:8080 by 10.244.0.19:80 x1"), findings(end(s)));
    }

    // ---------------------------------------------------------------- lb-probe-dropped

    private static PacketScript probes(PacketScript s, String source) {
        return s.syn(2 * S, source, 41001, "198.51.100.2", 30080, 11)
                .syn(2 * S + 300 * MS, source, 41002, "198.51.100.2", 30080, 22)
                .syn(3 * S, source, 41001, "198.51.100.2", 30080, 11)
                .syn(3 * S + 300 * MS, source, 41002, "198.51.100.2", 30080, 22);
    }

    private static PacketScript answeredClient(PacketScript s) {
        return s.syn(0, "192.0.2.50", 40001, "198.51.100.2", 30080, 5)
                .synAck(MS, "198.51.100.2", 30080, "192.0.2.50", 40001, 9, 6);
    }

    @Test
    void lbProbeDroppedIsRepeatedUnansweredProbesToATargetThatAnswersOthers() {
        PacketScript s = probes(answeredClient(new PacketScript()), VIP);
        assertEquals(List.of("lb-probe-dropped 203.0.113.10 -> 198.51.100.2:30080 by null x2"), findings(end(s)));
    }

    @Test
    void lbProbeDroppedFromAnLbIpNeedsNoOtherClient() {
        PacketScript s = probes(new PacketScript(List.of(new LbIps(Set.of(address(VIP))))), VIP);
        assertEquals(List.of("lb-probe-dropped 203.0.113.10 -> 198.51.100.2:30080 by null x2"), findings(end(s)));
    }

    @Test
    void oneSourcePortIsNoProbe() {
        PacketScript s = answeredClient(new PacketScript()).syn(2 * S, VIP, 41001, "198.51.100.2", 30080, 11)
                .syn(3 * S, VIP, 41001, "198.51.100.2", 30080, 11);
        assertEquals(List.of("no-response 203.0.113.10 -> 198.51.100.2:30080 by null x1"), findings(end(s)));
    }

    @Test
    void repeatedUnansweredAttemptsFromAnUnknownSourceToASilentTargetAreNoProbe() {
        PacketScript s = probes(new PacketScript(List.of(new LbIps(Set.of(address("203.0.113.99"))))), VIP);
        assertEquals(List.of("no-response 203.0.113.10 -> 198.51.100.2:30080 by null x2"), findings(end(s)));
    }

    @Test
    void whenEveryLbIpIsKnownAnotherSourceIsNoProbeEvenIfTheTargetAnswersOthers() {
        Context cluster = new Context() {
            @Override
            public Optional<Fact> lbIngressComplete() {
                return Optional.of(new Fact(Source.CLUSTER, "the cluster lists 1 LoadBalancer ingress IP"));
            }
        };
        PacketScript s = probes(answeredClient(new PacketScript(List.of(cluster))), VIP);
        assertEquals(List.of("no-response 203.0.113.10 -> 198.51.100.2:30080 by null x2"), findings(end(s)));
    }

    // ---------------------------------------------------------------- policy-reject

    @Test
    void policyRejectIsAdministrativelyProhibited() {
        for (int code : new int[] {9, 10, 13}) {
            PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN)
                    .unreachable(100_000, GW, POD, code, synPacket(POD, 40001, BACKEND, 80, ISN), 64);
            assertEquals(List.of("policy-reject 10.244.0.18 -> 10.244.0.19:80 by 10.244.0.1 x1"), findings(s), "code " + code);
        }
    }

    @Test
    void policyRejectInIpv6IsCode156() {
        for (int code : new int[] {1, 5, 6}) {
            PacketScript s = new PacketScript().syn(0, "2001:db8:244::18", 40001, "2001:db8:244::19", 80, ISN)
                    .unreachable(100_000, "2001:db8:244::1", "2001:db8:244::18", code,
                            synPacket("2001:db8:244::18", 40001, "2001:db8:244::19", 80, ISN), 64);
            assertEquals(List.of("policy-reject 2001:db8:244::18 -> [2001:db8:244::19]:80 by 2001:db8:244::1 x1"), findings(s),
                    "code " + code);
        }
    }

    @Test
    void hostUnreachableIsNoPolicyReject() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN)
                .unreachable(100_000, GW, POD, 1, synPacket(POD, 40001, BACKEND, 80, ISN), 64);
        assertEquals(List.of("icmp-unreachable 10.244.0.18 -> 10.244.0.19:80 by 10.244.0.1 x1"), findings(s));
    }

    // ---------------------------------------------------------------- delayed-connect

    @Test
    void delayedConnectIsAnAnswerOnlyAfterARetransmission() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN)
                .syn(S, POD, 40001, BACKEND, 80, ISN)
                .synAck(S + 100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1);
        assertEquals(List.of("delayed-connect 10.244.0.18 -> 10.244.0.19:80 by 10.244.0.19:80 x1"), findings(end(s)));
        assertEquals(S, s.findings().get(0).minDelayNanos(), "the gap: first SYN to the answered one");
    }

    @Test
    void theSameSynSeenTwiceOnTwoInterfacesIsNoRetransmission() {
        // -i any: the SYN on the pod's veth and on the bridge, microseconds apart, then the answer.
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN)
                .syn(30_000, POD, 40001, BACKEND, 80, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1);
        assertEquals(List.of(), findings(end(s)));
    }

    @Test
    void aRetransmissionAfterTheAnswerIsNoDelay() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1)
                .syn(S, POD, 40001, BACKEND, 80, ISN);
        assertEquals(List.of(), findings(end(s)));
    }

    @Test
    void aLateAnswerFromAnotherAddressIsABypassNotADelay() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, SVC, 8080, ISN)
                .syn(S, POD, 40001, SVC, 8080, ISN)
                .synAck(S + 100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1);
        assertEquals(List.of("nat-bypass-reply 10.244.0.18 -> 10.96.10.80:8080 by 10.244.0.19:80 x1"), findings(end(s)));
    }

    // ---------------------------------------------------------------- connection-refused, icmp-unreachable, no-response

    @Test
    void connectionRefusedIsARstThatAcknowledgesTheSyn() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 8081, ISN)
                .rst(100_000, BACKEND, 8081, POD, 40001, 0, ISN + 1, true);
        assertEquals(List.of("connection-refused 10.244.0.18 -> 10.244.0.19:8081 by 10.244.0.19:8081 x1"), findings(s));
    }

    @Test
    void aRstThatAcknowledgesAnotherIsnRefusesNothing() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 8081, ISN)
                .rst(100_000, BACKEND, 8081, POD, 40001, 0, ISN + 9, true)
                .syn(S, POD, 40001, BACKEND, 8081, ISN);
        assertEquals(List.of("no-response 10.244.0.18 -> 10.244.0.19:8081 by null x1"), findings(end(s)));
    }

    @Test
    void icmpUnreachableIsAnyOtherIcmpErrorQuotingTheSyn() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, "192.0.2.9", 443, ISN)
                .unreachable(2 * MS, "198.51.100.1", POD, 1, synPacket(POD, 40001, "192.0.2.9", 443, ISN), 62);
        assertEquals(List.of("icmp-unreachable 10.244.0.18 -> 192.0.2.9:443 by 198.51.100.1 x1"), findings(s));
    }

    @Test
    void noResponseIsARetransmittedSynWithoutAnswer() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN).syn(S, POD, 40001, BACKEND, 80, ISN);
        assertEquals(List.of("no-response 10.244.0.18 -> 10.244.0.19:80 by null x1"), findings(s));
    }

    @Test
    void aSynWithoutAnswerWhenTheCaptureEndsEarlyIsPendingNotAFinding() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN)
                .syn(500 * MS, "192.0.2.250", 1, "192.0.2.251", 1, 1);
        assertEquals(List.of(), findings(s));
    }

    @Test
    void anAnsweredAttemptIsNoFinding() {
        PacketScript s = new PacketScript().syn(0, POD, 40001, BACKEND, 80, ISN)
                .synAck(100_000, BACKEND, 80, POD, 40001, 5000, ISN + 1);
        assertEquals(List.of(), findings(end(s)));
    }
}
