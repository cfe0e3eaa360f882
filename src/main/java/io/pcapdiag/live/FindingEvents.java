package io.pcapdiag.live;

import io.fabric8.kubernetes.api.model.MicroTime;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import io.fabric8.kubernetes.api.model.events.v1.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.causes.Verdict;
import io.pcapdiag.context.Ref;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.report.Reporter;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code live --events}: each new finding as a Kubernetes Event (events.k8s.io/v1) on the Service or Pod it
 * involves, so that {@code kubectl describe} and {@code kubectl events} show it where the user looks. Only findings
 * whose target the context names get one. Bounded: one Event per finding group per {@link #REPEAT_NANOS}, at most
 * {@link #PER_MINUTE} a minute in all; what the bound holds back is counted. Posting runs on its own thread behind a
 * small queue, so an API server that is slow or gone never holds up the capture: a failure is said once, and counted.
 */
public final class FindingEvents implements Reporter, AutoCloseable {
    /** One Event per finding group at most this often. */
    static final long REPEAT_NANOS = TimeUnit.MINUTES.toNanos(10);
    /** Events a minute, in all. */
    static final int PER_MINUTE = 30;
    static final String CONTROLLER = "pcapdiag.io/live";
    private static final int QUEUE = 64;
    private static final int MAX_GROUPS = 10_000;
    private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final KubernetesClient client;
    private final String node;
    private final Consumer<String> say;
    private final LongSupplier clock;
    private final ThreadPoolExecutor poster;
    /** When each finding group last got an Event (nanos of the clock). */
    private final Map<String, Long> lastPosted = new HashMap<>();
    private long windowStart = Long.MIN_VALUE;
    private int inWindow;
    private long sequence;
    private final AtomicLong created = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private long unnamed;
    private long repeated;
    private long limited;
    private final AtomicBoolean saidFailure = new AtomicBoolean();
    private boolean saidLimit;

    /**
     * @param node  the node the Events report from (reportingInstance), or null
     * @param say   one line to the user (failures, the rate limit), each said once
     * @param clock nanoseconds, monotonic (System::nanoTime; a test's own)
     */
    public FindingEvents(KubernetesClient client, String node, Consumer<String> say, LongSupplier clock) {
        this.client = client;
        this.node = node == null || node.isBlank() ? "unknown-node" : node;
        this.say = say;
        this.clock = clock;
        this.poster = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "pcapdiag-events");
            t.setDaemon(true);
            return t;
        }, (r, e) -> failed.incrementAndGet());
    }

    @Override
    public synchronized void finding(Diagnosis d, Pattern previous, long nowNanos) {
        Ref target = d.target();
        if (target == null || target.namespace() == null || target.name() == null
                || !(Ref.SERVICE.equals(target.kind()) || Ref.POD.equals(target.kind()))) {
            unnamed++;
            return;
        }
        Finding f = d.finding();
        String group = f.pattern().id() + "|" + f.client() + "|" + f.target() + "|" + f.responder();
        long now = clock.getAsLong();
        Long last = lastPosted.get(group);
        if (last != null && now - last < REPEAT_NANOS && previous == null) {
            repeated++;
            return;
        }
        if (windowStart == Long.MIN_VALUE || now - windowStart >= TimeUnit.MINUTES.toNanos(1)) {
            windowStart = now;
            inWindow = 0;
        }
        if (inWindow >= PER_MINUTE) {
            limited++;
            if (!saidLimit) {
                saidLimit = true;
                say.accept("events: more than " + PER_MINUTE + " findings a minute: the rest are not posted as Events"
                        + " (counted; the log and metrics have them all)");
            }
            return;
        }
        inWindow++;
        if (lastPosted.size() >= MAX_GROUPS) {
            lastPosted.clear();
        }
        lastPosted.put(group, now);
        Event e = event(d, target, f, previous, sequence++);
        poster.execute(() -> post(e));
    }

    private Event event(Diagnosis d, Ref target, Finding f, Pattern previous, long seq) {
        Instant at = Instant.now();
        String kind = Ref.SERVICE.equals(target.kind()) ? "Service" : "Pod";
        StringBuilder note = new StringBuilder();
        note.append(f.pattern().id()).append(": ").append(f.pattern().title()).append(": ").append(f.client());
        if (d.client() != null) {
            note.append(" (").append(d.client().text()).append(')');
        }
        note.append(" -> ").append(f.target());
        if (f.responder() != null) {
            note.append(", answered by ").append(f.responder());
        }
        note.append(", ").append(f.attempts()).append(f.attempts() == 1 ? " attempt" : " attempts");
        for (CauseVerdict c : d.causes()) {
            if (c.verdict() == Verdict.CONFIRMED) {
                note.append("; cause (confirmed): ").append(c.cause().id());
            }
        }
        if (previous != null) {
            note.append(" (was ").append(previous.id()).append(')');
        }
        String text = note.length() > 1024 ? note.substring(0, 1021) + "..." : note.toString();
        return new EventBuilder()
                .withNewMetadata()
                .withName(name(target.name() + "." + f.pattern().id() + "." + NAME_TIME.format(at) + "." + node + "." + seq))
                .withNamespace(target.namespace())
                .addToLabels("app.kubernetes.io/name", "pcapdiag")
                .endMetadata()
                .withRegarding(new ObjectReferenceBuilder().withApiVersion("v1").withKind(kind)
                        .withNamespace(target.namespace()).withName(target.name()).build())
                .withType("Warning")
                .withReason(reason(f.pattern()))
                .withAction("Connect")
                .withNote(text)
                .withReportingController(CONTROLLER)
                .withReportingInstance(name(CONTROLLER.replace('/', '-') + "-" + node))
                .withEventTime(new MicroTime(DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(java.time.temporal.ChronoUnit.MICROS))))
                .build();
    }

    /** A DNS subdomain: lower case letters, digits, '-' and '.', at most 253 characters. */
    static String name(String s) {
        String n = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-").replaceAll("^[^a-z0-9]+|[^a-z0-9]+$", "");
        return n.length() > 253 ? n.substring(0, 253).replaceAll("[^a-z0-9]+$", "") : n;
    }

    /** The pattern id in UpperCamelCase, as Kubernetes reasons are: vip-local-reject → VipLocalReject. */
    static String reason(Pattern p) {
        StringBuilder sb = new StringBuilder();
        for (String w : p.id().split("-")) {
            sb.append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
        }
        return sb.toString();
    }

    private void post(Event e) {
        try {
            client.events().v1().events().inNamespace(e.getMetadata().getNamespace()).resource(e).create();
            created.incrementAndGet();
        } catch (RuntimeException ex) {
            failed.incrementAndGet();
            if (saidFailure.compareAndSet(false, true)) {
                String m = ex.getMessage() == null ? ex.toString() : ex.getMessage();
                say.accept("events: cannot post an Event (" + m.lines().findFirst().orElse(m)
                        + "); findings go on in the log and metrics, failures are counted");
            }
        }
    }

    @Override
    public void report(Report r) {
        flush();
        say.accept(summary());
    }

    /** Waits (a little) for the Events still queued. */
    void flush() {
        poster.shutdown();
        try {
            poster.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    synchronized String summary() {
        return "events: " + created.get() + " posted, " + repeated + " repeats within 10 min and " + limited
                + " over " + PER_MINUTE + " a minute not posted, " + unnamed + " findings without a named Service or Pod, "
                + failed.get() + " failed";
    }

    @Override
    public void close() {
        poster.shutdownNow();
    }
}
