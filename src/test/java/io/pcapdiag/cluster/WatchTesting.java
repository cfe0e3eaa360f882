package io.pcapdiag.cluster;

import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.util.function.BooleanSupplier;

/** What the informer tests share: an address by its text, and waiting for the index to catch up. */
final class WatchTesting {
    private WatchTesting() {
    }

    static Endpoint ip(String s) {
        long[] a = Ip.parse(s);
        return Endpoint.address(a[0], a[1]);
    }

    /** Waits up to 20 s for {@code cond}: informers deliver asynchronously. */
    static void await(BooleanSupplier cond, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("waited 20 s for " + what);
            }
            Thread.sleep(50);
        }
    }
}
