package io.pcapdiag.live;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The metrics endpoint of {@code pcapdiag live}: {@code /metrics}, {@code /ready}, {@code /-/healthy}. {@code /metrics}
 * answers in the format the request's Accept header asks for, chosen and written by the Prometheus client's own
 * exposition writers ({@link ExpositionFormats}): OpenMetrics text for a scraper that asks for
 * {@code application/openmetrics-text} (Prometheus does by default), the Prometheus protobuf format for one that asks
 * for it, the text format 0.0.4 otherwise. One thread and a selector, no worker pool: a client that connects and never finishes its
 * request holds a few bytes of buffer, not a thread, so a liveness probe is answered at once whatever other clients
 * do. The JDK server behind the Prometheus client's exporter reads each request on a pool thread without a time
 * limit: ten stalled connections kept {@code /-/healthy} from answering for 30 to 60 s, and with hostNetwork and a
 * liveness probe the pod was restarted.
 *
 * <p>Bounds: a request must arrive whole within {@link #REQUEST_MILLIS} and its head fit in {@link #MAX_REQUEST}
 * bytes; a response must be taken within {@link #RESPONSE_MILLIS}; at most {@link #MAX_CONNECTIONS} connections are
 * open (past that the oldest one is closed for the new one). Every response closes its connection (HTTP/1.1
 * {@code Connection: close}), as Prometheus expects of an exporter that does not keep connections.
 */
public final class MetricsServer implements AutoCloseable {
    static final long REQUEST_MILLIS = 5_000;
    static final long RESPONSE_MILLIS = 10_000;
    static final int MAX_REQUEST = 8 * 1024;
    static final int MAX_CONNECTIONS = 256;

    private final PrometheusRegistry registry;
    private final BooleanSupplier ready;
    private final ServerSocketChannel listener;
    private final Selector selector;
    private final Thread thread;
    private final List<Conn> conns = new ArrayList<>();
    private final ExpositionFormats formats = ExpositionFormats.init();
    private volatile boolean stopping;
    private volatile int open;

    private static final class Conn {
        final SocketChannel ch;
        final SelectionKey key;
        final long opened;
        ByteBuffer in = ByteBuffer.allocate(1024);
        ByteBuffer out;
        long deadline;

        Conn(SocketChannel ch, SelectionKey key, long now) {
            this.ch = ch;
            this.key = key;
            this.opened = now;
            this.deadline = now + REQUEST_MILLIS * 1_000_000L;
        }
    }

    /** Binds {@code address:port} (port 0: any free port) and starts serving. */
    public MetricsServer(String address, int port, PrometheusRegistry registry, BooleanSupplier ready) throws IOException {
        this.registry = registry;
        this.ready = ready;
        this.selector = Selector.open();
        this.listener = ServerSocketChannel.open();
        try {
            listener.bind(new InetSocketAddress(address, port), 128);
            listener.configureBlocking(false);
            listener.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException | RuntimeException e) {
            listener.close();
            selector.close();
            throw e;
        }
        this.thread = new Thread(this::loop, "pcapdiag-metrics");
        thread.setDaemon(true);
        thread.start();
    }

    /** The port it listens on. */
    public int port() {
        return ((InetSocketAddress) listener.socket().getLocalSocketAddress()).getPort();
    }

    private void loop() {
        try {
            while (!stopping) {
                selector.select(200);
                long now = System.nanoTime();
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isAcceptable()) {
                        accept(now);
                    } else {
                        Conn c = (Conn) k.attachment();
                        try {
                            if (k.isReadable()) {
                                read(c, now);
                            } else if (k.isWritable()) {
                                write(c);
                            }
                        } catch (IOException | RuntimeException e) {
                            close(c);
                        }
                    }
                }
                for (Conn c : new ArrayList<>(conns)) {
                    if (now - c.deadline > 0) {
                        close(c);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // The selector itself failed: the endpoint stops; capture goes on.
        } finally {
            for (Conn c : new ArrayList<>(conns)) {
                close(c);
            }
        }
    }

    private void accept(long now) throws IOException {
        SocketChannel ch;
        while ((ch = listener.accept()) != null) {
            if (conns.size() >= MAX_CONNECTIONS) {
                close(conns.get(0)); // the oldest: probably a stalled one
            }
            ch.configureBlocking(false);
            SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
            Conn c = new Conn(ch, key, now);
            key.attach(c);
            conns.add(c);
            open = conns.size();
        }
    }

    private void read(Conn c, long now) throws IOException {
        if (!c.in.hasRemaining()) {
            if (c.in.capacity() >= MAX_REQUEST) {
                respond(c, now, 431, "text/plain; charset=utf-8", "request header too large\n".getBytes(StandardCharsets.UTF_8));
                return;
            }
            ByteBuffer bigger = ByteBuffer.allocate(Math.min(MAX_REQUEST, c.in.capacity() * 2));
            c.in.flip();
            bigger.put(c.in);
            c.in = bigger;
        }
        int n = c.ch.read(c.in);
        if (n < 0) {
            close(c);
            return;
        }
        String head = new String(c.in.array(), 0, c.in.position(), StandardCharsets.ISO_8859_1);
        int end = head.indexOf("\r\n\r\n");
        if (end < 0) {
            end = head.indexOf("\n\n");
        }
        if (end < 0) {
            return; // more to come, within the deadline
        }
        String line = head.lines().findFirst().orElse("");
        String[] parts = line.split(" ");
        if (parts.length < 2) {
            respond(c, now, 400, "text/plain; charset=utf-8", "bad request\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        boolean headOnly = parts[0].equals("HEAD");
        if (!parts[0].equals("GET") && !headOnly) {
            respond(c, now, 405, "text/plain; charset=utf-8", "only GET\n".getBytes(StandardCharsets.UTF_8));
            return;
        }
        String path = parts[1];
        int q = path.indexOf('?');
        if (q >= 0) {
            path = path.substring(0, q);
        }
        int code = 200;
        String type = "text/plain; charset=utf-8";
        byte[] body;
        switch (path) {
            case "/metrics" -> {
                ExpositionFormatWriter writer = formats.findWriter(header(head, "accept"));
                ByteArrayOutputStream b = new ByteArrayOutputStream(16 * 1024);
                writer.write(b, registry.scrape());
                body = b.toByteArray();
                type = writer.getContentType();
            }
            case "/-/healthy" -> body = "Exporter is healthy.\n".getBytes(StandardCharsets.UTF_8);
            case "/ready" -> {
                boolean ok = ready.getAsBoolean();
                code = ok ? 200 : 503;
                body = (ok ? "capturing\n" : "no interface is being captured\n").getBytes(StandardCharsets.UTF_8);
            }
            case "/" -> body = "pcapdiag live: /metrics, /ready, /-/healthy\n".getBytes(StandardCharsets.UTF_8);
            default -> {
                code = 404;
                body = "not found\n".getBytes(StandardCharsets.UTF_8);
            }
        }
        respond(c, now, code, type, headOnly ? new byte[0] : body, body.length);
    }

    /** The values of the request head's header {@code name} (any case), joined by commas as RFC 9110 allows; null if none. */
    static String header(String head, String name) {
        String joined = head.lines().skip(1)
                .filter(l -> l.length() > name.length() && l.charAt(name.length()) == ':' && l.regionMatches(true, 0, name, 0, name.length()))
                .map(l -> l.substring(name.length() + 1).strip())
                .collect(java.util.stream.Collectors.joining(","));
        return joined.isEmpty() ? null : joined;
    }

    private void respond(Conn c, long now, int code, String type, byte[] body) throws IOException {
        respond(c, now, code, type, body, body.length);
    }

    private void respond(Conn c, long now, int code, String type, byte[] body, int length) throws IOException {
        String reason = switch (code) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 431 -> "Request Header Fields Too Large";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
        byte[] head = ("HTTP/1.1 " + code + " " + reason + "\r\nContent-Type: " + type + "\r\nContent-Length: " + length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        c.out = ByteBuffer.allocate(head.length + body.length).put(head).put(body).flip();
        c.deadline = now + RESPONSE_MILLIS * 1_000_000L;
        c.key.interestOps(SelectionKey.OP_WRITE);
        write(c);
    }

    private void write(Conn c) throws IOException {
        c.ch.write(c.out);
        if (!c.out.hasRemaining()) {
            close(c);
        }
    }

    private void close(Conn c) {
        conns.remove(c);
        open = conns.size();
        c.key.cancel();
        try {
            c.ch.close();
        } catch (IOException e) {
            // closing anyway
        }
    }

    /** Open connections now (for tests). */
    int connections() {
        return open;
    }

    @Override
    public void close() {
        stopping = true;
        selector.wakeup();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            listener.close();
            selector.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
