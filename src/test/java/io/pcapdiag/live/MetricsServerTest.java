package io.pcapdiag.live;

import org.junit.jupiter.api.Tag;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The live metrics endpoint under hostile clients: 100 connections that never send a byte and 100 that stall in the
 * middle of their request must not keep {@code /-/healthy} or {@code /metrics} from answering (the JDK server the
 * Prometheus exporter uses blocked for 30-60 s with ten); stalled requests are closed after their deadline; what it
 * serves is the Prometheus text format.
 */
@Tag("slow")
class MetricsServerTest {
    private record Answer(int code, String head, String body, long millis) {
    }

    private static Answer get(int port, String path) throws IOException {
        long t0 = System.nanoTime();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(30_000);
            OutputStream o = s.getOutputStream();
            o.write(("GET " + path + " HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            o.flush();
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int split = all.indexOf("\r\n\r\n");
            String head = all.substring(0, split);
            return new Answer(Integer.parseInt(head.split(" ")[1]), head, all.substring(split + 4), (System.nanoTime() - t0) / 1_000_000);
        }
    }

    @Test
    void healthyAnswersAtOnceUnder200StalledConnections() throws Exception {
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter c = Counter.builder().name("pcapdiag_test_events_total").help("test events").labelNames("kind").register(registry);
        c.labelValues("a").inc(3);
        boolean[] ready = {false};
        List<Socket> stalled = new ArrayList<>();
        try (MetricsServer server = new MetricsServer("127.0.0.1", 0, registry, () -> ready[0])) {
            int port = server.port();
            for (int i = 0; i < 100; i++) {
                Socket silent = new Socket("127.0.0.1", port);
                stalled.add(silent);
                Socket half = new Socket("127.0.0.1", port);
                half.getOutputStream().write("GET /metrics HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
                stalled.add(half);
            }
            Answer healthy = get(port, "/-/healthy");
            assertEquals(200, healthy.code());
            assertTrue(healthy.millis() < 1000, "/-/healthy took " + healthy.millis() + " ms under 200 stalled connections");
            System.out.println("/-/healthy under 100 silent + 100 half-sent connections: " + healthy.millis() + " ms");

            Answer metrics = get(port, "/metrics");
            assertEquals(200, metrics.code());
            assertTrue(metrics.head().contains("Content-Type: text/plain; version=0.0.4"), metrics.head());
            assertTrue(metrics.body().contains("pcapdiag_test_events_total{kind=\"a\"} 3.0"), metrics.body());
            assertEquals(503, get(port, "/ready").code());
            ready[0] = true;
            assertEquals(200, get(port, "/ready").code());
            assertEquals(404, get(port, "/nope").code());

            // The stalled ones are closed at their deadline: each reads end-of-stream, not a hang.
            Thread.sleep(MetricsServer.REQUEST_MILLIS + 1000);
            for (Socket s : stalled) {
                s.setSoTimeout(5000);
                InputStream in = s.getInputStream();
                assertEquals(-1, in.read(), "a stalled connection is closed after " + MetricsServer.REQUEST_MILLIS + " ms");
            }
            assertEquals(0, server.connections());
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }

    @Test
    void theOldestConnectionGivesWayPastTheBound() throws Exception {
        try (MetricsServer server = new MetricsServer("127.0.0.1", 0, new PrometheusRegistry(), () -> true)) {
            List<Socket> many = new ArrayList<>();
            try {
                for (int i = 0; i < MetricsServer.MAX_CONNECTIONS + 50; i++) {
                    many.add(new Socket("127.0.0.1", server.port()));
                }
                Answer a = get(server.port(), "/-/healthy");
                assertEquals(200, a.code());
                assertTrue(server.connections() <= MetricsServer.MAX_CONNECTIONS, server.connections() + " open");
            } finally {
                for (Socket s : many) {
                    s.close();
                }
            }
        }
    }
}
