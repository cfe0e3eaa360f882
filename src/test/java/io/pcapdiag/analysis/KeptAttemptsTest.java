package io.pcapdiag.analysis;

import static io.pcapdiag.testing.PacketScript.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.testing.PacketScript;
import io.pcapdiag.track.Attempt;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A decided attempt is the holder's: a finding's examples and the attempt list ({@code --attempts}) are still the
 * attempts they were once thousands of later ones came and went.
 */
class KeptAttemptsTest {
    /** A refused attempt first, then 3,000 answered ones over 30 s, each decided (and its object free) 4 s later. */
    private static Result run(int listAttempts) {
        PacketScript s = new PacketScript(new Analysis.Options(Analysis.Options.DEFAULT_MAX_OPEN,
                Analysis.Options.DEFAULT_MAX_FINDINGS, List.of(), listAttempts));
        s.syn(0, "10.244.0.5", 40000, "10.96.0.10", 80, 1000);
        s.rst(MS, "10.96.0.10", 80, "10.244.0.5", 40000, 0, 1001, true);
        for (int i = 0; i < 3000; i++) {
            long t = (10 + 10L * i) * MS;
            String client = "10.244.1." + (1 + i % 200);
            s.syn(t, client, 30000 + i, "10.96.0.20", 443, 5000 + i);
            s.synAck(t + MS, "10.96.0.20", 443, client, 30000 + i, 9, 5001 + i);
        }
        return s.finish();
    }

    private static String describe(Attempt a) {
        return a.client() + ":" + a.clientPort() + " -> " + a.target() + " isn " + a.isn() + " #" + a.synFrame() + " " + a.outcome();
    }

    @Test
    void aFindingsExampleIsStillItsAttempt() {
        List<Finding> findings = run(0).findings();
        assertEquals(1, findings.size(), findings::toString);
        assertEquals(List.of("10.244.0.5:40000 -> 10.96.0.10:80 isn 1000 #1 REFUSED"),
                findings.get(0).examples().stream().map(KeptAttemptsTest::describe).toList());
    }

    @Test
    void listedAttemptsAreStillTheirAttempts() {
        List<Result.Listed> listed = run(3).attempts();
        assertEquals(List.of("10.244.0.5:40000 -> 10.96.0.10:80 isn 1000 #1 REFUSED",
                "10.244.1.1:30000 -> 10.96.0.20:443 isn 5000 #3 ANSWERED",
                "10.244.1.2:30001 -> 10.96.0.20:443 isn 5001 #5 ANSWERED"),
                listed.stream().map(l -> describe(l.attempt())).toList());
    }
}
