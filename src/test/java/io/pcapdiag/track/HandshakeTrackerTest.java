package io.pcapdiag.track;

import static io.pcapdiag.track.TrackerHarness.MS;
import static io.pcapdiag.track.TrackerHarness.S;
import static io.pcapdiag.track.TrackerHarness.T0;
import static io.pcapdiag.track.TrackerHarness.address;
import static io.pcapdiag.track.TrackerHarness.endpoint;
import static io.pcapdiag.track.TrackerHarness.synPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** docs/design.md "Connection attempts": what answers an attempt, and when it is decided. */
class HandshakeTrackerTest {
    static final String CLIENT = "10.244.0.18";
    static final String VIP = "10.96.171.178";
    static final int VPORT = 8080;
    static final String POD = "10.244.0.19";
    static final int PPORT = 80;
    static final int ISN = 0x3b9aca07;

    @Test
    void synAckFromTheDialedTargetIsAnswered() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.synAck(T0 + MS, VIP, VPORT, CLIENT, 40000, 777, ISN + 1);
        h.finish();
        Attempt a = h.only();
        assertEquals(Outcome.ANSWERED, a.outcome());
        assertEquals(endpoint(VIP, VPORT), a.target());
        assertEquals(address(CLIENT), a.client());
        assertEquals(40000, a.clientPort());
        assertEquals(ISN, a.isn());
        assertEquals(T0, a.syn().nanos);
        assertEquals(0, a.retransmissions());
        assertNull(a.otherSynAck());
        assertEquals(1, h.tracker.attempts());
        assertEquals(0, h.tracker.unmatchedAnswers());
    }

    @Test
    void sameSynAtLeast150msLaterIsARetransmission() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + 150 * MS, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + 1150 * MS, CLIENT, 40000, VIP, VPORT, ISN);
        h.finish();
        Attempt a = h.only();
        assertEquals(2, a.retransmissions());
        assertEquals(1, h.tracker.attempts());
        // Retransmitted and nothing answered: unanswered although the capture ended 1.15 s after the SYN.
        assertEquals(Outcome.UNANSWERED, a.outcome());
    }

    @Test
    void sameSynSoonerIsTheSamePacketOnAnotherInterface() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN, "veth1");
        h.syn(T0 + 20_000, CLIENT, 40000, VIP, VPORT, ISN, "cni0");
        h.syn(T0 + 149 * MS + 999_999, CLIENT, 40000, VIP, VPORT, ISN, "eth0");
        h.finish();
        Attempt a = h.only();
        assertEquals(0, a.retransmissions());
        assertEquals("veth1", a.syn().interfaceName, "the first sighting is the evidence");
        assertEquals(Outcome.PENDING, a.outcome(), "150 ms of capture after an unretransmitted SYN is too early to tell");
    }

    @Test
    void retransmissionGapCountsFromTheLastRetransmissionNotFromCopies() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN, "veth1");
        h.syn(T0 + 100 * MS, CLIENT, 40000, VIP, VPORT, ISN, "cni0"); // copy: does not move the reference
        h.syn(T0 + 160 * MS, CLIENT, 40000, VIP, VPORT, ISN, "veth1"); // 160 ms after the first SYN
        h.syn(T0 + 200 * MS, CLIENT, 40000, VIP, VPORT, ISN, "cni0"); // 40 ms after that retransmission: a copy
        h.finish();
        assertEquals(1, h.only().retransmissions());
    }

    @Test
    void dnatCopyIsEvidenceOfTheSameAttempt() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN, "veth1");
        h.syn(T0 + 30_000, CLIENT, 40000, POD, PPORT, ISN, "cni0");
        // The DNAT'ed copy of a retransmission 1 s later is neither a retransmission nor a second copy.
        h.syn(T0 + S, CLIENT, 40000, VIP, VPORT, ISN, "veth1");
        h.syn(T0 + S + 30_000, CLIENT, 40000, POD, PPORT, ISN, "cni0");
        h.finish();
        Attempt a = h.only();
        assertEquals(1, h.tracker.attempts());
        assertEquals(endpoint(VIP, VPORT), a.target(), "the target is what the client dialed, before NAT");
        assertNotNull(a.natCopy());
        assertEquals(endpoint(POD, PPORT), a.natCopy().destination());
        assertEquals("cni0", a.natCopy().interfaceName);
        assertEquals(1, a.retransmissions());
    }

    @Test
    void synAckFromAnotherAddressOnlyIsABypassedReply() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.synAck(T0 + 200_000, POD, PPORT, CLIENT, 40000, 999, ISN + 1);
        // The client's kernel has no socket for POD:80 and resets it: seq = the SYN-ACK's ack = ISN+1, no ACK flag.
        h.rst(T0 + 210_000, CLIENT, 40000, POD, PPORT, ISN + 1, 0, false);
        h.syn(T0 + S, CLIENT, 40000, VIP, VPORT, ISN);
        h.finish();
        Attempt a = h.only();
        assertEquals(Outcome.BYPASSED, a.outcome());
        assertEquals(endpoint(POD, PPORT), a.responder());
        assertEquals(a.otherSynAck(), a.answer());
        assertEquals(200_000, a.rttNanos());
        assertNotNull(a.clientReset());
        assertEquals(endpoint(CLIENT, 40000), a.clientReset().source());
        assertEquals(endpoint(POD, PPORT), a.clientReset().destination());
        assertNull(a.reset(), "the client's own RST is not a refusal");
        assertEquals(0, h.tracker.unmatchedAnswers());
    }

    @Test
    void hairpinOnAnyWithBothSynAcksIsHealthy() {
        // tcpdump -i any on a node: the backend's SYN-ACK on its veth and the un-NAT'ed one on the client's.
        for (boolean backendFirst : new boolean[] {true, false}) {
            TrackerHarness h = new TrackerHarness();
            h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN, "veth-client");
            h.syn(T0 + 10_000, CLIENT, 40000, POD, PPORT, ISN, "veth-pod");
            if (backendFirst) {
                h.synAck(T0 + 50_000, POD, PPORT, CLIENT, 40000, 5, ISN + 1);
                h.synAck(T0 + 60_000, VIP, VPORT, CLIENT, 40000, 5, ISN + 1);
            } else {
                h.synAck(T0 + 50_000, VIP, VPORT, CLIENT, 40000, 5, ISN + 1);
                h.synAck(T0 + 60_000, POD, PPORT, CLIENT, 40000, 5, ISN + 1);
            }
            h.finish();
            assertEquals(Outcome.ANSWERED, h.only().outcome(), "backend first: " + backendFirst);
        }
    }

    @Test
    void rstAcknowledgingTheSynIsARefusal() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.rst(T0 + 300_000, VIP, VPORT, CLIENT, 40000, 0, ISN + 1, true);
        h.finish();
        Attempt a = h.only();
        assertEquals(Outcome.REFUSED, a.outcome());
        assertEquals(endpoint(VIP, VPORT), a.responder());
        assertEquals(300_000, a.rttNanos());
    }

    @Test
    void refusalPrefersTheDialedTargetsRst() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.rst(T0 + 100_000, POD, PPORT, CLIENT, 40000, 0, ISN + 1, true);
        h.rst(T0 + 110_000, VIP, VPORT, CLIENT, 40000, 0, ISN + 1, true);
        h.rst(T0 + 120_000, POD, PPORT, CLIENT, 40000, 0, ISN + 1, true);
        h.finish();
        assertEquals(endpoint(VIP, VPORT), h.only().responder());
        assertEquals(110_000, h.only().rttNanos());
    }

    @Test
    void rstWithTheWrongAckOrWithoutTheAckFlagIsNoRefusal() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.rst(T0 + 100_000, VIP, VPORT, CLIENT, 40000, 0, ISN + 2, true);
        h.rst(T0 + 110_000, VIP, VPORT, CLIENT, 40000, 0, ISN, true);
        h.rst(T0 + 120_000, VIP, VPORT, CLIENT, 40000, 0, ISN + 1, false);
        h.finish();
        Attempt a = h.only();
        assertNull(a.reset());
        assertEquals(Outcome.PENDING, a.outcome());
        assertEquals(2, h.tracker.unmatchedAnswers(), "RST|ACKs that matched nothing are counted");
    }

    @Test
    void synAckWithTheWrongAckAnswersNothing() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.synAck(T0 + MS, VIP, VPORT, CLIENT, 40000, 1, ISN);
        h.synAck(T0 + MS, VIP, VPORT, CLIENT, 40001, 1, ISN + 1);
        h.finish();
        assertEquals(Outcome.PENDING, h.only().outcome());
        assertEquals(2, h.tracker.unmatchedAnswers());
    }

    @Test
    void icmpErrorQuotingTheSynIsARejection() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.unreachable(T0 + 80_000, VIP, CLIENT, 3, synPacket(CLIENT, 40000, VIP, VPORT, ISN), 28);
        h.finish();
        Attempt a = h.only();
        assertEquals(Outcome.REJECTED, a.outcome());
        assertEquals(address(VIP), a.responder(), "an ICMP responder is an address without port");
        assertEquals(80_000, a.rttNanos());
        assertEquals(3, a.icmp().icmpType);
        assertEquals(3, a.icmp().icmpCode);
        assertEquals(VPORT, a.icmp().quotedDstPort);
    }

    @Test
    void icmpQuotingTheDnatedCopyMatchesBySeq() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + 10_000, CLIENT, 40000, POD, PPORT, ISN);
        h.unreachable(T0 + 80_000, "10.244.0.1", CLIENT, 1, synPacket(CLIENT, 40000, POD, PPORT, ISN), 576);
        h.finish();
        assertEquals(Outcome.REJECTED, h.only().outcome());
        assertEquals(address("10.244.0.1"), h.only().responder());
    }

    @Test
    void icmpQuotingAnotherSeqIsUnmatched() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.unreachable(T0 + 80_000, VIP, CLIENT, 3, synPacket(CLIENT, 40000, VIP, VPORT, ISN + 1), 28);
        h.finish();
        assertEquals(Outcome.PENDING, h.only().outcome());
        assertEquals(1, h.tracker.unmatchedAnswers());
    }

    @Test
    void icmpWithTheQuoteCutBeforeTheSeqMatchesByPorts() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40001, VIP, 9999, ISN + 5); // another port: must not be chosen
        h.syn(T0 + 1000, CLIENT, 40000, VIP, VPORT, ISN);
        h.unreachable(T0 + 80_000, VIP, CLIENT, 3, synPacket(CLIENT, 40000, VIP, VPORT, ISN), 24);
        h.finish();
        Attempt a = h.decided.stream().filter(x -> x.clientPort() == 40000).findFirst().orElseThrow();
        Attempt other = h.decided.stream().filter(x -> x.clientPort() == 40001).findFirst().orElseThrow();
        assertEquals(Outcome.REJECTED, a.outcome());
        assertEquals(Outcome.PENDING, other.outcome());
    }

    @Test
    void cutQuoteMatchesTheDnatedPortToo() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + 10_000, CLIENT, 40000, POD, PPORT, ISN);
        h.unreachable(T0 + 80_000, POD, CLIENT, 3, synPacket(CLIENT, 40000, POD, PPORT, ISN), 24);
        h.finish();
        assertEquals(Outcome.REJECTED, h.only().outcome());
    }

    @Test
    void cutQuoteOfTwoAttemptsFromTheSamePortPicksTheNewest() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + 10 * MS, CLIENT, 40000, VIP, VPORT, ISN + 1_000_000); // port reused with a new ISN
        h.unreachable(T0 + 20 * MS, VIP, CLIENT, 3, synPacket(CLIENT, 40000, VIP, VPORT, 0), 26);
        h.finish();
        Attempt newer = h.decided.stream().filter(x -> x.isn() == ISN + 1_000_000).findFirst().orElseThrow();
        Attempt older = h.decided.stream().filter(x -> x.isn() == ISN).findFirst().orElseThrow();
        assertEquals(Outcome.REJECTED, newer.outcome());
        assertEquals(Outcome.PENDING, older.outcome());
    }

    @Test
    void cutQuoteMatchesTheQuotedDestinationAddressNotOnlyItsPort() {
        // Linux shares an ephemeral port between connections to different destinations.
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, "192.0.2.10", 443, ISN);
        h.syn(T0 + MS, CLIENT, 40000, "198.51.100.20", 443, ISN + 77);
        h.unreachable(T0 + 2 * MS, "203.0.113.1", CLIENT, 13, synPacket(CLIENT, 40000, "192.0.2.10", 443, ISN), 24);
        h.finish();
        Attempt first = h.decided.stream().filter(x -> x.isn() == ISN).findFirst().orElseThrow();
        Attempt second = h.decided.stream().filter(x -> x.isn() == ISN + 77).findFirst().orElseThrow();
        assertEquals(Outcome.REJECTED, first.outcome());
        assertEquals(Outcome.PENDING, second.outcome());
    }

    @Test
    void cutQuoteWithoutAnyMatchingAttemptIsUnmatched() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.unreachable(T0 + MS, VIP, CLIENT, 3, synPacket(CLIENT, 40000, VIP, 1234, ISN), 24);
        h.finish();
        assertEquals(Outcome.PENDING, h.only().outcome());
        assertEquals(1, h.tracker.unmatchedAnswers());
    }

    @Test
    void precedenceTargetSynAckThenOtherSynAckThenRstThenIcmp() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 1, VIP, VPORT, 100);
        h.syn(T0, CLIENT, 2, VIP, VPORT, 200);
        h.syn(T0, CLIENT, 3, VIP, VPORT, 300);
        byte[] q1 = synPacket(CLIENT, 1, VIP, VPORT, 100);
        byte[] q2 = synPacket(CLIENT, 2, VIP, VPORT, 200);
        byte[] q3 = synPacket(CLIENT, 3, VIP, VPORT, 300);
        // 1: everything, the target's SYN-ACK last.
        h.unreachable(T0 + 1, VIP, CLIENT, 3, q1, 28);
        h.rst(T0 + 2, VIP, VPORT, CLIENT, 1, 0, 101, true);
        h.synAck(T0 + 3, POD, PPORT, CLIENT, 1, 0, 101);
        h.synAck(T0 + 4, VIP, VPORT, CLIENT, 1, 0, 101);
        // 2: ICMP, RST and a bypassing SYN-ACK.
        h.unreachable(T0 + 1, VIP, CLIENT, 3, q2, 28);
        h.rst(T0 + 2, VIP, VPORT, CLIENT, 2, 0, 201, true);
        h.synAck(T0 + 3, POD, PPORT, CLIENT, 2, 0, 201);
        // 3: ICMP then RST.
        h.unreachable(T0 + 1, VIP, CLIENT, 3, q3, 28);
        h.rst(T0 + 2, VIP, VPORT, CLIENT, 3, 0, 301, true);
        h.finish();
        assertEquals(Outcome.ANSWERED, byPort(h, 1).outcome());
        assertEquals(Outcome.BYPASSED, byPort(h, 2).outcome());
        assertEquals(Outcome.REFUSED, byPort(h, 3).outcome());
    }

    private static Attempt byPort(TrackerHarness h, int port) {
        return h.decided.stream().filter(x -> x.clientPort() == port).findFirst().orElseThrow();
    }

    @Test
    void unansweredOnceThreeSecondsOfCaptureWentBy() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.tick(T0 + 4 * S - 1);
        assertEquals(0, h.decided.size(), "not decided before its time (3 s, plus 1 s for a retransmission due at 3 s)");
        h.tick(T0 + 4 * S);
        assertEquals(1, h.decided.size(), "decided as capture time reaches 4 s, without finish()");
        assertEquals(Outcome.UNANSWERED, h.only().outcome());
        assertEquals(null, h.only().responder());
        assertEquals(-1, h.only().rttNanos());
        h.finish();
        assertEquals(1, h.decided.size(), "finish() does not deliver it again");
    }

    @Test
    void pendingWhenTheCaptureEndsTooEarly() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.tick(T0 + 3 * S - 1);
        h.finish();
        assertEquals(Outcome.PENDING, h.only().outcome());
    }

    @Test
    void onlyCaptureTimeCounts() {
        // A capture from 1970 analysed decades later: nothing is decided by the wall clock.
        TrackerHarness h = new TrackerHarness();
        h.syn(1_000, CLIENT, 40000, VIP, VPORT, ISN);
        h.synAck(2 * S, VIP, VPORT, CLIENT, 40000, 1, ISN + 1);
        h.finish();
        assertEquals(Outcome.ANSWERED, h.only().outcome());
        TrackerHarness h2 = new TrackerHarness();
        h2.syn(1_000, CLIENT, 40000, VIP, VPORT, ISN);
        h2.finish();
        assertEquals(Outcome.PENDING, h2.only().outcome());
    }

    @Test
    void anEarlierTimestampDoesNotRewindTheClock() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.tick(T0 + 2 * S);
        h.tick(T0 - 10 * S); // merged captures: one interface's clock is behind
        h.tick(T0 + 2 * S + 500 * MS);
        h.finish();
        assertEquals(Outcome.PENDING, h.only().outcome());
        TrackerHarness h2 = new TrackerHarness();
        h2.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h2.tick(T0 + 4 * S);
        h2.tick(T0 + S);
        h2.finish();
        assertEquals(Outcome.UNANSWERED, h2.only().outcome());
    }

    @Test
    void retransmissionKeepsTheAttemptOpenForLateAnswers() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + S, CLIENT, 40000, VIP, VPORT, ISN);
        h.tick(T0 + 3500 * MS);
        assertEquals(0, h.decided.size(), "a retransmitted attempt is still open");
        h.synAck(T0 + 3800 * MS, VIP, VPORT, CLIENT, 40000, 1, ISN + 1);
        h.finish();
        assertEquals(Outcome.ANSWERED, h.only().outcome());
        assertEquals(1, h.only().retransmissions());
    }

    @Test
    void answerAfterTheAttemptWasDecidedIsUnmatched() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.synAck(T0 + 4 * S + 1, VIP, VPORT, CLIENT, 40000, 1, ISN + 1);
        h.finish();
        assertEquals(Outcome.UNANSWERED, h.only().outcome());
        assertEquals(1, h.tracker.unmatchedAnswers());
    }

    @Test
    void linuxSynRetransmissionScheduleIsOneAttempt() {
        // tcp_syn_retries=6: SYNs at 0, 1, 3, 7, 15, 31 and 63 s (the gap doubles each time). docs/design.md: a
        // retransmission is the same attempt, however long the gap.
        TrackerHarness h = new TrackerHarness();
        for (long t : new long[] {0, 1, 3, 7, 15, 31, 63}) {
            h.syn(T0 + t * S, CLIENT, 40000, VIP, VPORT, ISN);
        }
        h.tick(T0 + 200 * S);
        h.finish();
        assertEquals(1, h.tracker.attempts());
        Attempt a = h.only();
        assertEquals(6, a.retransmissions());
        assertEquals(Outcome.UNANSWERED, a.outcome());
    }

    @Test
    void aLongRetransmittingAttemptDoesNotHoldBackOthers() {
        TrackerHarness h = new TrackerHarness();
        for (long t : new long[] {0, 1, 3, 7}) {
            h.syn(T0 + t * S, CLIENT, 40000, VIP, VPORT, ISN); // next SYN due at 15 s
        }
        h.tick(T0 + 10 * S);
        h.syn(T0 + 10_500 * MS, CLIENT, 40001, VIP, VPORT, ISN + 1);
        h.tick(T0 + 14_500 * MS);
        assertEquals(1, h.decided.size(), "decided 4 s after its SYN, whatever is queued before it");
        assertEquals(40001, h.decided.get(0).clientPort());
        assertEquals(Outcome.UNANSWERED, h.decided.get(0).outcome());
        assertEquals(1, h.tracker.open());
        h.finish();
    }

    @Test
    void aFirstRetransmissionAtThreeSecondsIsTheSameAttempt() {
        // Windows' initial SYN RTO is 3 s: its first retransmission must not open a second attempt.
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + 3 * S, CLIENT, 40000, VIP, VPORT, ISN);
        h.syn(T0 + 9 * S, CLIENT, 40000, VIP, VPORT, ISN);
        h.finish();
        assertEquals(1, h.tracker.attempts());
        assertEquals(2, h.only().retransmissions());
    }

    @Test
    void sequenceNumbersWrap() {
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, CLIENT, 40000, VIP, VPORT, 0xffffffff);
        h.synAck(T0 + MS, VIP, VPORT, CLIENT, 40000, 1, 0);
        h.syn(T0, CLIENT, 40001, VIP, VPORT, 0x7fffffff);
        h.rst(T0 + MS, VIP, VPORT, CLIENT, 40001, 0, 0x80000000, true);
        h.finish();
        assertEquals(Outcome.ANSWERED, byPort(h, 40000).outcome());
        assertEquals(Outcome.REFUSED, byPort(h, 40001).outcome());
    }

    @Test
    void ipv6AttemptsAreTrackedTheSameWay() {
        String c = "fd00:10:244::18";
        String v = "fd00:10:96::abcd";
        String p = "fd00:10:244::19";
        TrackerHarness h = new TrackerHarness();
        h.syn(T0, c, 1, v, 443, 10);
        h.synAck(T0 + MS, v, 443, c, 1, 0, 11);
        h.syn(T0, c, 2, v, 443, 20);
        h.synAck(T0 + MS, p, 8443, c, 2, 0, 21);
        h.syn(T0, c, 3, v, 443, 30);
        h.rst(T0 + MS, v, 443, c, 3, 0, 31, true);
        h.syn(T0, c, 4, v, 443, 40);
        h.unreachable(T0 + MS, v, c, 4, synPacket(c, 4, v, 443, 40), 1232);
        h.syn(T0, c, 5, v, 443, 50);
        h.unreachable(T0 + MS, v, c, 4, synPacket(c, 5, v, 443, 50), 40 + 4);
        // Same numbers over IPv4 must not be confused with the IPv6 attempts.
        h.synAck(T0 + MS, "10.0.0.1", 443, "10.0.0.2", 1, 0, 11);
        h.finish();
        assertEquals(Outcome.ANSWERED, byPort(h, 1).outcome());
        assertEquals(Outcome.BYPASSED, byPort(h, 2).outcome());
        assertEquals(endpoint(p, 8443), byPort(h, 2).responder());
        assertEquals(Outcome.REFUSED, byPort(h, 3).outcome());
        assertEquals(Outcome.REJECTED, byPort(h, 4).outcome());
        assertEquals(Outcome.REJECTED, byPort(h, 5).outcome());
        assertEquals(address(v), byPort(h, 5).responder());
        assertEquals(1, h.tracker.unmatchedAnswers());
    }

    @Test
    void ecnSetupSynIsASyn() {
        TrackerHarness h = new TrackerHarness();
        h.feed(T0, TrackerHarness.ip(CLIENT, VIP, io.pcapdiag.testing.TcpBuilder.tcp(40000, VPORT).seq(ISN)
                .flags(io.pcapdiag.testing.TcpBuilder.SYN | io.pcapdiag.testing.TcpBuilder.ECE | io.pcapdiag.testing.TcpBuilder.CWR)));
        h.finish();
        assertEquals(1, h.tracker.attempts());
    }

    @Test
    void synWithRstIsNoAttempt() {
        TrackerHarness h = new TrackerHarness();
        h.feed(T0, TrackerHarness.ip(CLIENT, VIP, io.pcapdiag.testing.TcpBuilder.tcp(40000, VPORT).seq(ISN)
                .flags(io.pcapdiag.testing.TcpBuilder.SYN | io.pcapdiag.testing.TcpBuilder.RST)));
        h.finish();
        assertEquals(0, h.tracker.attempts());
        assertEquals(0, h.decided.size());
    }

    @Test
    void maxOpenMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new HandshakeTracker(a -> false, 0));
    }

    @Test
    void outcomeIdsArePublic() {
        assertEquals("answered", Outcome.ANSWERED.id());
        assertEquals("bypassed", Outcome.BYPASSED.id());
        assertEquals("refused", Outcome.REFUSED.id());
        assertEquals("rejected", Outcome.REJECTED.id());
        assertEquals("unanswered", Outcome.UNANSWERED.id());
        assertEquals("pending", Outcome.PENDING.id());
        assertEquals("evicted", Outcome.EVICTED.id());
        assertTrue(Outcome.values().length == 7);
    }
}
