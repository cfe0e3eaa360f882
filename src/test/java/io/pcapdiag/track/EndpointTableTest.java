package io.pcapdiag.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.testing.Frames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The table CaptureFacts learns in, against a HashMap model; an attempt finds its own keys in it. */
class EndpointTableTest {
    private static final class Named extends EndpointTable.Entry {
        final String name;

        Named(Endpoint key, String name) {
            super(key);
            this.name = name;
        }
    }

    /** Keys close together, as a node's addresses are: one /16 of IPv4, a few IPv6, ports 0-3 and none. */
    private static Endpoint key(SplittableRandom random) {
        long hi = random.nextInt(4) == 0 ? 0x2001_0db8_0000_0000L + random.nextInt(3) : 0;
        long lo = hi == 0 ? 0xffff_0a00_0000L | random.nextInt(1 << 16) : random.nextInt(1 << 16);
        int port = random.nextInt(5) - 1;
        return new Endpoint(hi, lo, port);
    }

    @Test
    void holdsWhatAHashMapHolds() {
        SplittableRandom random = new SplittableRandom(41);
        EndpointTable<Named> table = new EndpointTable<>();
        Map<Endpoint, Named> map = new HashMap<>();
        List<Endpoint> asked = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            Endpoint k = key(random);
            asked.add(k);
            if (random.nextBoolean()) {
                Named e = new Named(k, "#" + i);
                table.put(e);
                map.put(k, e);
            }
            assertSame(map.get(k), table.get(k.hi(), k.lo(), k.port()), "after " + i + " operations: " + k);
            assertEquals(map.size(), table.size());
        }
        for (Endpoint k : asked) {
            Named e = table.get(k);
            assertSame(map.get(k), e);
            if (e != null) {
                assertEquals(k, new Endpoint(e.hi, e.lo, e.port));
            }
        }
    }

    @Test
    void keysThatDifferInOneFieldAreApart() {
        EndpointTable<Named> table = new EndpointTable<>();
        table.put(new Named(new Endpoint(0, 1, 80), "v4:80"));
        table.put(new Named(new Endpoint(0, 1, Endpoint.NO_PORT), "v4"));
        table.put(new Named(new Endpoint(1, 1, 80), "other hi"));
        assertEquals("v4:80", table.get(0, 1, 80).name);
        assertEquals("v4", table.get(0, 1, Endpoint.NO_PORT).name);
        assertEquals("other hi", table.get(1, 1, 80).name);
        assertNull(table.get(0, 2, 80));
        assertNull(table.get(0, 0, 0));
        assertEquals(3, table.size());
        table.put(new Named(new Endpoint(0, 1, 80), "again"));
        assertEquals("again", table.get(0, 1, 80).name);
        assertEquals(3, table.size());
    }

    @Test
    void anAttemptLooksItselfUpWithoutAnEndpoint() {
        PacketView v = new PacketView();
        v.reset();
        v.kind = PacketView.Kind.TCP;
        v.ipVersion = 4;
        v.srcLo = 0xffff_0a00_0001L;
        v.srcPort = 40000;
        v.seq = 7;
        v.dstLo = 0xffff_0a60_0001L;
        v.dstPort = 443;
        v.flags = PacketView.SYN;
        Attempt a = new Attempt(Frames.frame(1, new byte[0]), v);
        EndpointTable<Named> targets = new EndpointTable<>();
        EndpointTable<Named> clients = new EndpointTable<>();
        targets.put(new Named(a.target(), "target"));
        clients.put(new Named(a.client(), "client"));
        assertEquals("target", a.targetIn(targets).name);
        assertEquals("client", a.clientIn(clients).name);
        assertNull(a.clientIn(targets));
        assertTrue(a.clientIs(0, 0xffff_0a00_0001L));
        assertFalse(a.clientIs(0, 0xffff_0a60_0001L));
    }
}
