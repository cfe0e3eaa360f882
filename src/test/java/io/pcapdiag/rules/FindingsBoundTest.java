package io.pcapdiag.rules;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.testing.PacketScript;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bound on distinct findings. Offline, attempts past it are counted per pattern. Live used to go silent for good
 * once 50,000 groups existed: there the stalest group makes room, said once, and its attempts are counted.
 */
class FindingsBoundTest {
    /** Five clients refused one after the other (one attempt each), client i at i seconds. */
    private static Result fiveRefused(PacketScript s) {
        for (int i = 1; i <= 5; i++) {
            String client = "10.244.0." + i;
            int isn = 1000 * i;
            s.syn(i * S, client, 40000, "10.96.0.10", 80, isn);
            s.rst(i * S + MS, "10.96.0.10", 80, client, 40000, 0, isn + 1, true);
        }
        return s.finish();
    }

    private static List<String> clients(Result r) {
        return r.findings().stream().map(f -> f.client().toString()).sorted().toList();
    }

    @Test
    void offlineTheFirstGroupsAreKeptAndTheRestCounted() {
        Result r = fiveRefused(new PacketScript(List.of(), 3));
        assertEquals(List.of("10.244.0.1", "10.244.0.2", "10.244.0.3"), clients(r));
        assertEquals(Map.of(Pattern.CONNECTION_REFUSED, 2L), r.overflow());
    }

    @Test
    void liveTheStalestGroupMakesRoomAndItIsSaidOnce() {
        PacketScript s = new PacketScript(List.of(), 3);
        List<String> said = new ArrayList<>();
        s.analysis().keepNewestFindings(said::add);
        Result r = fiveRefused(s);
        assertEquals(List.of("10.244.0.3", "10.244.0.4", "10.244.0.5"), clients(r), "the newest findings are kept");
        assertEquals(Map.of(Pattern.CONNECTION_REFUSED, 2L), r.overflow(), "the dropped groups' attempts are counted");
        assertEquals(1, said.size(), said::toString);
        assertEquals(true, said.get(0).startsWith("3 distinct findings: from now on"), said.get(0));
    }
}
