package io.pcapdiag.track;

import static io.pcapdiag.track.TrackerHarness.MS;
import static io.pcapdiag.track.TrackerHarness.S;
import static io.pcapdiag.track.TrackerHarness.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Rules;
import io.pcapdiag.testing.DnsBuilder;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The tracker's UDP exchanges and DNS queries (docs/design.md, DNS): one exchange across DNAT, answered from the dialed
 * address or from another, re-sent, raced, expanded by the search list, rejected by ICMP; and the pattern each names.
 */
class DnsTrackerTest {
    static final String CLIENT = "10.244.0.18";
    static final String VIP = "10.96.0.10";
    static final String DNS_POD = "10.244.0.10";
    static final String NAME = "web.default.svc.cluster.local";

    private final TrackerHarness h = new TrackerHarness();

    private static byte[] udp(String src, int sport, String dst, int dport, byte[] payload) {
        return Ipv4Builder.ipv4(src, dst).payload(17, DnsBuilder.udp(sport, dport, payload)).build();
    }

    private void query(long t, String dst, int id, String name, int type) {
        h.feed(t, udp(CLIENT, 40001, dst, 53, DnsBuilder.query(id, name, type).build()));
    }

    private void answer(long t, String src, int id, String name, int type, DnsBuilder b) {
        h.feed(t, udp(src, 53, CLIENT, 40001, b.build()));
    }

    private static DnsBuilder ok(int id, String name, int type) {
        return DnsBuilder.query(id, name, type).response(0).answerA("10.96.10.80");
    }

    private Attempt decided(int id) {
        return h.decided.stream().filter(a -> a.query() != null && a.query().id() == id).findFirst()
                .orElseThrow(() -> new AssertionError("query " + id + " not decided: " + h.decided));
    }

    @Test
    void aQueryAndItsDnatCopyAreOneQueryAnsweredByTheServiceAddress() {
        query(T0, VIP, 7, NAME, 1);
        query(T0 + 1000, DNS_POD, 7, NAME, 1); // after DNAT
        answer(T0 + 2 * MS, DNS_POD, 7, NAME, 1, ok(7, NAME, 1)); // before reverse NAT
        answer(T0 + 2 * MS + 1000, VIP, 7, NAME, 1, ok(7, NAME, 1));
        h.finish();
        Attempt q = h.only();
        assertEquals(ExchangeKind.DNS, q.kind());
        assertEquals(Outcome.ANSWERED, q.outcome());
        assertEquals(new DnsQuery(7, NAME, 1), q.query());
        assertEquals(0, q.rcode());
        assertNotNull(q.natCopy());
        assertEquals(2 * MS + 1000, q.connectNanos());
        assertNull(Rules.classify(q), "answered at once: no finding");
    }

    @Test
    void anAnswerOnlyFromTheDnsPodItselfIsABypassTheClientRefuses() {
        query(T0, VIP, 7, NAME, 1);
        query(T0 + 1000, DNS_POD, 7, NAME, 1);
        answer(T0 + 2 * MS, DNS_POD, 7, NAME, 1, ok(7, NAME, 1));
        byte[] refused = udp(DNS_POD, 53, CLIENT, 40001, ok(7, NAME, 1).build());
        h.feed(T0 + 2 * MS + 500, Ipv4Builder.ipv4(CLIENT, DNS_POD).icmp(IcmpBuilder.error(3, 3, refused, refused.length)).build());
        h.finish();
        Attempt q = h.only();
        assertEquals(Outcome.BYPASSED, q.outcome());
        assertNotNull(q.clientReset(), "the client's port unreachable is its refusal");
        assertEquals(Pattern.NAT_BYPASS_REPLY, Rules.classify(q));
    }

    @Test
    void theQueryLeftUnansweredBesideItsAnsweredTwinLostTheRace() {
        query(T0, VIP, 1, NAME, 1);
        query(T0 + 2 * MS, VIP, 2, NAME, 28);
        answer(T0 + 3 * MS, VIP, 1, NAME, 1, ok(1, NAME, 1));
        query(T0 + 5 * S, VIP, 1, NAME, 1); // glibc asks both again
        query(T0 + 5 * S + 100_000, VIP, 2, NAME, 28);
        answer(T0 + 5 * S + MS, VIP, 1, NAME, 1, ok(1, NAME, 1));
        answer(T0 + 5 * S + MS, VIP, 2, NAME, 28, DnsBuilder.query(2, NAME, 28).response(0));
        h.finish();
        Attempt lost = decided(2);
        assertTrue(lost.lostRace());
        assertEquals(Outcome.ANSWERED, lost.outcome());
        assertEquals(1, lost.retransmissions());
        assertEquals(5 * S + 100_000 - 2 * MS, lost.firstResendDelayNanos());
        assertEquals(Pattern.DNS_RACE_LOST, Rules.classify(lost));
        assertFalse(decided(1).lostRace(), "the query answered at once won");
        assertNull(Rules.classify(decided(1)));
    }

    @Test
    void anAnsweredQueryIsDecidedOnceItsAnswersCopiesAreInNotSixSecondsLater() {
        query(T0, VIP, 1, NAME, 1);
        answer(T0 + 2 * MS, VIP, 1, NAME, 1, ok(1, NAME, 1));
        answer(T0 + 2 * MS + 1000, VIP, 1, NAME, 1, ok(1, NAME, 1)); // the same answer on the client's veth
        h.tick(T0 + 2 * MS + HandshakeTracker.ANSWER_COPIES_NANOS - 1);
        assertTrue(h.decided.isEmpty(), "not before its copies are in");
        h.tick(T0 + 2 * MS + HandshakeTracker.ANSWER_COPIES_NANOS + HandshakeTracker.EXCHANGE_LOOK_NANOS);
        assertEquals(Outcome.ANSWERED, h.only().outcome());
        assertEquals(0, h.tracker.unmatchedAnswers(), "the copy found its query");
        assertEquals(0, h.tracker.open());
    }

    @Test
    void anAnsweredQueryIsHeldWhileItsRaceSiblingOrItsTruncatedAnswersRetryIsAwaited() {
        query(T0, VIP, 1, NAME, 1);
        query(T0 + 2 * MS, VIP, 2, NAME, 28);
        answer(T0 + 3 * MS, VIP, 1, NAME, 1, ok(1, NAME, 1));
        h.feed(T0 + 20 * MS, udp(CLIENT, 40002, VIP, 53, DnsBuilder.query(3, NAME, 1).build()));
        h.feed(T0 + 21 * MS, udp(VIP, 53, CLIENT, 40002, DnsBuilder.query(3, NAME, 1).response(0).truncated().build()));
        h.tick(T0 + 2 * S);
        assertTrue(h.decided.isEmpty(), "the A waits for its AAAA, the truncated answer for its retry: " + h.decided);
        h.tick(T0 + 7 * S);
        assertEquals(3, h.decided.size());
    }

    @Test
    void twoQueriesMoreThanTenMillisecondsApartAreNoRace() {
        query(T0, VIP, 1, NAME, 1);
        query(T0 + 11 * MS, VIP, 2, NAME, 28);
        answer(T0 + 12 * MS, VIP, 1, NAME, 1, ok(1, NAME, 1));
        query(T0 + 5 * S, VIP, 2, NAME, 28);
        h.finish();
        assertEquals(Pattern.DNS_NO_RESPONSE, Rules.classify(decided(2)));
    }

    @Test
    void unansweredOnceTheCaptureWentOnFiveSecondsPendingBefore() {
        query(T0, VIP, 9, NAME, 1);
        h.tick(T0 + 4900 * MS);
        h.finish();
        assertEquals(Outcome.PENDING, h.only().outcome());
        TrackerHarness later = new TrackerHarness();
        later.feed(T0, udp(CLIENT, 40001, VIP, 53, DnsBuilder.query(9, NAME, 1).build()));
        later.tick(T0 + 5 * S);
        later.finish();
        assertEquals(Outcome.UNANSWERED, later.only().outcome());
        assertEquals(Pattern.DNS_NO_RESPONSE, Rules.classify(later.only()));
    }

    @Test
    void servfailAndARefusalWithoutQuestionAreDnsErrors() {
        query(T0, VIP, 3, "db.corp.example", 1);
        answer(T0 + 4 * MS, VIP, 3, "db.corp.example", 1, DnsBuilder.query(3, "db.corp.example", 1).response(2));
        query(T0 + S, VIP, 4, "db.corp.example", 1);
        answer(T0 + S + MS, VIP, 4, null, 0, DnsBuilder.query(4, "db.corp.example", 1).response(5).noQuestion());
        h.finish();
        assertEquals(2, decided(3).rcode());
        assertEquals(Pattern.DNS_ERROR, Rules.classify(decided(3)));
        assertEquals(5, decided(4).rcode(), "a response without a question answers by its id");
        assertEquals(Pattern.DNS_ERROR, Rules.classify(decided(4)));
    }

    @Test
    void aResponseToAnotherQuestionAnswersNothing() {
        query(T0, VIP, 3, NAME, 1);
        answer(T0 + MS, VIP, 3, "other.example", 1, ok(3, "other.example", 1));
        h.tick(T0 + 7 * S);
        assertEquals(Outcome.UNANSWERED, h.only().outcome());
        assertEquals(1, h.tracker.unmatchedAnswers());
    }

    @Test
    void aTruncatedAnswerNeverAskedAgainOverTcpIsAnError() {
        query(T0, VIP, 5, NAME, 16);
        answer(T0 + MS, VIP, 5, NAME, 16, DnsBuilder.query(5, NAME, 16).response(0).truncated());
        query(T0 + S, VIP, 6, NAME, 16);
        answer(T0 + S + MS, VIP, 6, NAME, 16, DnsBuilder.query(6, NAME, 16).response(0).truncated());
        h.syn(T0 + S + 2 * MS, CLIENT, 40777, VIP, 53, 1000); // asked again over TCP
        h.finish();
        assertTrue(decided(5).truncatedNotRetried());
        assertEquals(Pattern.DNS_ERROR, Rules.classify(decided(5)));
        assertFalse(decided(6).truncatedNotRetried());
        assertNull(Rules.classify(decided(6)));
    }

    private void expansion(long step) {
        String[] suffixes = {".default.svc.cluster.local", ".svc.cluster.local", ".cluster.local"};
        long t = T0;
        int id = 100;
        for (String suffix : suffixes) {
            String n = "api.example.com" + suffix;
            query(t, VIP, id, n, 1);
            answer(t + step, VIP, id, n, 1, DnsBuilder.query(id, n, 3 > 2 ? 1 : 1).response(3));
            t += step + 100_000;
            id++;
        }
        query(t, VIP, id, "api.example.com", 1);
        answer(t + MS, VIP, id, "api.example.com", 1, ok(id, "api.example.com", 1));
        h.finish();
    }

    @Test
    void aNameAnsweredAfterItsSearchSuffixesFailedCostsTheirDelay() {
        expansion(7 * MS);
        Attempt last = decided(103);
        assertEquals(3, last.searchMisses());
        assertEquals(3 * (7 * MS + 100_000), last.searchDelayNanos());
        assertEquals(Pattern.DNS_SEARCH_EXPANSION, Rules.classify(last));
        assertEquals(io.pcapdiag.rules.Severity.INFO, Pattern.DNS_SEARCH_EXPANSION.severity());
        List<Attempt> misses = h.decided.stream().filter(a -> a.rcode() == 3).toList();
        assertEquals(3, misses.size());
        misses.forEach(m -> assertNull(Rules.classify(m), "an NXDOMAIN is no finding by itself"));
    }

    @Test
    void aSearchListThatCostLessThanTenMillisecondsIsNoFinding() {
        expansion(2 * MS);
        assertEquals(3, decided(103).searchMisses());
        assertNull(Rules.classify(decided(103)));
    }

    @Test
    void anIcmpErrorQuotingTheDnatedDatagramRejectsTheExchange() {
        byte[] sent = udp(CLIENT, 40001, "10.96.81.25", 8125, new byte[19]);
        h.feed(T0, sent);
        byte[] dnat = udp(CLIENT, 40001, "10.244.0.19", 8125, new byte[19]);
        h.feed(T0 + 1000, dnat);
        h.feed(T0 + 2000, Ipv4Builder.ipv4("10.244.0.19", CLIENT).icmp(IcmpBuilder.error(3, 3, dnat, dnat.length)).build());
        h.finish();
        Attempt x = h.only();
        assertEquals(ExchangeKind.UDP, x.kind());
        assertEquals(Outcome.REJECTED, x.outcome());
        assertNull(x.query());
        assertEquals(Pattern.UDP_UNREACHABLE, Rules.classify(x));
    }

    @Test
    void aUdpFlowAnsweredOrNotIsNoFinding() {
        h.feed(T0, udp(CLIENT, 40002, "10.96.81.25", 8125, new byte[19]));
        h.feed(T0 + MS, udp("10.96.81.25", 8125, CLIENT, 40002, new byte[4]));
        h.feed(T0 + 2 * S, udp(CLIENT, 40003, "10.96.81.25", 8125, new byte[19]));
        h.tick(T0 + 20 * S);
        h.finish();
        assertEquals(2, h.decided.size());
        assertEquals(Outcome.ANSWERED, h.decided.get(0).outcome());
        assertEquals(Outcome.UNANSWERED, h.decided.get(1).outcome());
        h.decided.forEach(a -> assertNull(Rules.classify(a)));
    }

    /** A DNS message over TCP: its two-octet length, then the message (RFC 7766 8). */
    private static byte[] framed(byte[] message) {
        byte[] out = new byte[2 + message.length];
        out[0] = (byte) (message.length >> 8);
        out[1] = (byte) message.length;
        System.arraycopy(message, 0, out, 2, message.length);
        return out;
    }

    @Test
    void aQueryOverTcpIsAQueryBesideItsConnectionsAttempt() {
        h.syn(T0, CLIENT, 40777, VIP, 53, 1000);
        h.synAck(T0 + MS, VIP, 53, CLIENT, 40777, 5000, 1001);
        h.feed(T0 + 2 * MS, TrackerHarness.ip(CLIENT, VIP, io.pcapdiag.testing.TcpBuilder.tcp(40777, 53).seq(1001).ack(5001)
                .flags(io.pcapdiag.testing.TcpBuilder.PSH | io.pcapdiag.testing.TcpBuilder.ACK)
                .payload(framed(DnsBuilder.query(11, NAME, 1).build()))));
        h.feed(T0 + 3 * MS, TrackerHarness.ip(VIP, CLIENT, io.pcapdiag.testing.TcpBuilder.tcp(53, 40777).seq(5001).ack(1050)
                .flags(io.pcapdiag.testing.TcpBuilder.PSH | io.pcapdiag.testing.TcpBuilder.ACK)
                .payload(framed(DnsBuilder.query(11, NAME, 1).response(2).build()))));
        // A segment continuing a message that spans segments starts with no length: no query, no anomaly.
        io.pcapdiag.decode.PacketView cont = h.feed(T0 + 4 * MS, TrackerHarness.ip(VIP, CLIENT,
                io.pcapdiag.testing.TcpBuilder.tcp(53, 40777).seq(5100).ack(1050).flags(io.pcapdiag.testing.TcpBuilder.ACK)
                .payload(new byte[] {0, 20, (byte) 0xff, (byte) 0xff, 0, 1, 0, 0, 0, 0, 0, 0, 63, 'x', 'x', 'x', 0, 0, 0, 0,
                        0, 0})));
        assertFalse(cont.dns);
        assertNull(cont.weird);
        h.finish();
        assertEquals(2, h.decided.size());
        Attempt q = decided(11);
        assertEquals(ExchangeKind.DNS, q.kind());
        assertFalse(q.udp());
        assertEquals(2, q.rcode());
        assertEquals(Pattern.DNS_ERROR, Rules.classify(q));
        Attempt connection = h.decided.stream().filter(a -> a.query() == null).findFirst().orElseThrow();
        assertEquals(ExchangeKind.TCP, connection.kind());
        assertEquals(Outcome.ANSWERED, connection.outcome());
    }

    @Test
    void aDatagramFromAThirdPeerToTheClientsPortIsNoBypass() {
        // memberlist-style gossip: one port talks to many peers; B answers, C writes to the same port on its own.
        h.feed(T0, udp(CLIENT, 7946, "10.244.1.5", 7946, new byte[40]));
        h.feed(T0 + MS, udp("10.244.2.9", 7946, CLIENT, 7946, new byte[40]));
        h.feed(T0 + 2 * MS, udp("10.244.1.5", 7946, CLIENT, 7946, new byte[40]));
        h.finish();
        Attempt gossip = h.decided.stream().filter(a -> a.clientIs(TrackerHarness.endpoint(CLIENT, 0).hi(),
                TrackerHarness.endpoint(CLIENT, 0).lo())).findFirst().orElseThrow();
        assertEquals(Outcome.ANSWERED, gossip.outcome());
        h.decided.forEach(a -> assertNull(Rules.classify(a), a.client() + " " + a.outcome()));
    }

    @Test
    void aReplyFromWhereDnatSentTheDatagramIsABypassWhenTheClientRefusesIt() {
        h.feed(T0, udp(CLIENT, 40005, "10.96.81.25", 8125, new byte[19]));
        h.feed(T0 + 1000, udp(CLIENT, 40005, "10.244.0.19", 8125, new byte[19]));
        byte[] reply = udp("10.244.0.19", 8125, CLIENT, 40005, new byte[4]);
        h.feed(T0 + MS, reply);
        h.feed(T0 + MS + 100, Ipv4Builder.ipv4(CLIENT, "10.244.0.19").icmp(IcmpBuilder.error(3, 3, reply, reply.length)).build());
        h.tick(T0 + 7 * S);
        assertEquals(Outcome.BYPASSED, h.only().outcome());
        assertEquals(Pattern.NAT_BYPASS_REPLY, Rules.classify(h.only()));
    }

    @Test
    void aReplyFromElsewhereThatTheClientTakesIsNoBypass() {
        // An unconnected socket (gossip) sends to B and, within the same instant, to C; C answers, B does not.
        h.feed(T0, udp(CLIENT, 7946, "10.244.1.5", 7946, new byte[40]));
        h.feed(T0 + 1000, udp(CLIENT, 7946, "10.244.2.9", 7946, new byte[40]));
        h.feed(T0 + MS, udp("10.244.2.9", 7946, CLIENT, 7946, new byte[40]));
        h.tick(T0 + 7 * S);
        assertEquals(Outcome.UNANSWERED, h.only().outcome());
        assertNull(Rules.classify(h.only()));
    }

    @Test
    void aDnsServerForwardingItsClientsSuffixedNamesHasNoSearchListOfItsOwn() {
        // The DNS pod answers a client (so it is a DNS server), then forwards suffixed names upstream.
        h.feed(T0, udp(CLIENT, 40001, DNS_POD, 53, DnsBuilder.query(1, NAME, 1).build()));
        h.feed(T0 + MS, udp(DNS_POD, 53, CLIENT, 40001, ok(1, NAME, 1).build()));
        long t = T0 + 2 * MS;
        int id = 200;
        for (String suffix : new String[] {".default.svc.cluster.local", ".svc.cluster.local", ".cluster.local"}) {
            String n = "api.example.com" + suffix;
            h.feed(t, udp(DNS_POD, 50000, "198.51.100.1", 53, DnsBuilder.query(id, n, 1).build()));
            h.feed(t + 9 * MS, udp("198.51.100.1", 53, DNS_POD, 50000, DnsBuilder.query(id, n, 1).response(3).build()));
            t += 10 * MS;
            id++;
        }
        h.feed(t, udp(DNS_POD, 50000, "198.51.100.1", 53, DnsBuilder.query(id, "api.example.com", 1).build()));
        h.feed(t + MS, udp("198.51.100.1", 53, DNS_POD, 50000, ok(id, "api.example.com", 1).build()));
        h.finish();
        assertEquals(0, decided(id).searchMisses());
        assertNull(Rules.classify(decided(id)));
    }

    @Test
    void anIcmpErrorQuotingADatagramTheCaptureMissedIsAnExchangeOfItsOwn() {
        byte[] dnat = udp(CLIENT, 40001, "10.244.0.19", 8125, new byte[19]);
        h.feed(T0, Ipv4Builder.ipv4("10.244.0.19", CLIENT).icmp(IcmpBuilder.error(3, 3, dnat, dnat.length)).build());
        byte[] probe = udp(CLIENT, 33434, "192.0.2.9", 33434, new byte[8]);
        h.feed(T0 + MS, Ipv4Builder.ipv4("10.244.0.1", CLIENT).icmp(IcmpBuilder.error(11, 0, probe, probe.length)).build());
        h.finish();
        Attempt x = h.only();
        assertTrue(x.quoteOnly());
        assertEquals(CLIENT, x.client().address());
        assertEquals(40001, x.clientPort());
        assertEquals("10.244.0.19:8125", x.target().toString());
        assertEquals(Outcome.REJECTED, x.outcome());
        assertEquals(1, x.frames().size(), "the ICMP error alone: the quoted datagram is no packet of the capture");
        assertTrue(x.frames().get(0).icmp);
        assertEquals(Pattern.UDP_UNREACHABLE, Rules.classify(x));
        assertEquals(1, h.tracker.unmatchedAnswers(), "time exceeded quoting a probe makes no exchange");
    }

    @Test
    void anIcmpErrorSeenBeforeAndAfterReverseNatIsOneExchangeToTheServiceAddress() {
        byte[] dnat = udp(CLIENT, 40001, "10.244.0.19", 8125, new byte[19]);
        byte[] sent = udp(CLIENT, 40001, "10.96.81.25", 8125, new byte[19]);
        h.feed(T0, Ipv4Builder.ipv4("10.244.0.19", CLIENT).icmp(IcmpBuilder.error(3, 3, dnat, dnat.length)).build());
        h.feed(T0 + 20_000, Ipv4Builder.ipv4("10.96.81.25", CLIENT).icmp(IcmpBuilder.error(3, 3, sent, sent.length)).build());
        h.finish();
        Attempt x = h.only();
        assertEquals("10.96.81.25:8125", x.target().toString());
        assertEquals("10.244.0.19", x.responder().toString());
        assertEquals(2, x.frames().size());
    }
}
