package io.pcapdiag.context;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.testing.PacketScript;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Which other client the capture says a target answered: of the clients it answered, the two whose first answered
 * SYN came first are kept, and the earlier of them that is not the client asked about is named, with that SYN.
 */
class CaptureFactsAnsweredTest {
    private static final String TARGET = "10.96.0.10";
    private static final String A = "10.244.0.5";
    private static final String B = "10.244.0.6";
    private static final String C = "10.244.0.7";
    private static final String D = "10.244.0.8";

    private static Endpoint ep(String address, int port) {
        long[] a = Ip.parse(address);
        return new Endpoint(a[0], a[1], port);
    }

    private static String answersOthers(PacketScript s, String client) {
        Optional<Fact> f = s.analysis().context().answersOthers(ep(TARGET, 80), ep(client, 40000));
        return f.map(Fact::text).orElse("none");
    }

    /** A SYN from {@code client} at {@code t} answered 1 ms later by the target: frames n (SYN) and n+1. */
    private static void answered(PacketScript s, long t, String client, int sport, int isn) {
        s.syn(t, client, sport, TARGET, 80, isn).synAck(t + MS, TARGET, 80, client, sport, 7, isn + 1);
    }

    @Test
    void theTwoEarliestClientsAreKeptAndTheOtherOneNamed() {
        PacketScript s = new PacketScript();
        answered(s, 1 * S, C, 41000, 100); // #1
        answered(s, 2 * S, A, 41001, 200); // #3
        answered(s, 3 * S, B, 41002, 300); // #5: third, not kept
        answered(s, 4 * S, C, 41003, 400); // C again: its first SYN stays #1
        s.syn(20 * S, "10.244.9.9", 9, "10.96.9.9", 9, 9); // time goes on: every attempt above is decided
        s.finish();
        assertEquals("10.96.0.10:80 answered 10.244.0.7 in this capture (SYN #1)", answersOthers(s, A));
        assertEquals("10.96.0.10:80 answered 10.244.0.5 in this capture (SYN #3)", answersOthers(s, C));
        assertEquals("10.96.0.10:80 answered 10.244.0.7 in this capture (SYN #1)", answersOthers(s, B));
        assertEquals("10.96.0.10:80 answered 10.244.0.7 in this capture (SYN #1)", answersOthers(s, D));
    }

    @Test
    void anAttemptDecidedLaterWithAnEarlierSynTakesTheLaterClientsPlace() {
        PacketScript s = new PacketScript();
        // D's SYN comes first but is retransmitted, so its attempt is decided after C's and A's.
        s.syn(500 * MS, D, 42000, TARGET, 80, 50); // #1
        answered(s, 1 * S, C, 41000, 100); // #2
        s.syn(1500 * MS, D, 42000, TARGET, 80, 50); // #4, the retransmission
        s.synAck(1600 * MS, TARGET, 80, D, 42000, 7, 51); // #5
        answered(s, 2 * S, A, 41001, 200); // #6
        // Time goes on in steps: C's attempt is decided at 5.5 s, A's at 6.2 s, D's (due at 6.5 s) after both.
        s.syn(5500 * MS, "10.244.9.9", 9, "10.96.9.9", 9, 9);
        s.syn(6200 * MS, "10.244.9.9", 10, "10.96.9.9", 9, 10);
        s.syn(30 * S, "10.244.9.9", 11, "10.96.9.9", 9, 11);
        s.finish();
        // Kept: D (#1) and C (#2); A (#6) made room for D.
        assertEquals("10.96.0.10:80 answered 10.244.0.8 in this capture (SYN #1)", answersOthers(s, C));
        assertEquals("10.96.0.10:80 answered 10.244.0.7 in this capture (SYN #2)", answersOthers(s, D));
        assertEquals("10.96.0.10:80 answered 10.244.0.8 in this capture (SYN #1)", answersOthers(s, A));
    }

    @Test
    void aTargetThatAnsweredOnlyTheClientAskedAboutAnsweredNoOther() {
        PacketScript s = new PacketScript();
        answered(s, 1 * S, A, 41000, 100);
        answered(s, 2 * S, A, 41001, 200);
        s.syn(20 * S, "10.244.9.9", 9, "10.96.9.9", 9, 9);
        s.finish();
        assertEquals("none", answersOthers(s, A));
        assertEquals("10.96.0.10:80 answered 10.244.0.5 in this capture (SYN #1)", answersOthers(s, B));
    }
}
