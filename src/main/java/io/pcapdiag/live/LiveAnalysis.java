package io.pcapdiag.live;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.LinkTypes;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Diagnose;
import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.report.LiveStatus;
import io.pcapdiag.report.Reporter;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Rules;
import io.pcapdiag.track.Attempt;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The analysis side of live mode, all on one thread: puts packets back in time order ({@link Reorder}),
 * feeds the one {@link Analysis}, and tells the reporters (the output, the metrics) about findings as they
 * appear and the counters as they move. The same tracker
 * and rules as offline analysis, fed the same packets in the same order, give the same findings.
 *
 * <p>Time: the tracker's clock is capture time, which only moves with packets. Offline, the last packet
 * ends the capture; live, silence is information: an unanswered SYN is decided seconds after it even when
 * nothing else arrives. So when packets stop coming, the session moves the tracker's clock ({@link #tick})
 * up to the time every interface is known to be complete. Only then: the tracker's decisions depend on the steps its clock
 * takes, and while packets flow, their own timestamps are the steps an offline read takes too.
 */
final class LiveAnalysis {
    /** Findings are looked for at most this often (more rarely when there are very many of them). */
    static final long MIN_STREAM_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Analysis analysis;
    private final List<Reporter> reporters;
    private final LiveMetrics metrics;
    private final int maxFindings;
    private final Reorder reorder = new Reorder();
    private final Frame frame = new Frame();
    private final Map<PacketSource, Tally> tallies = new LinkedHashMap<>();
    private final IdentityHashMap<Finding, Pattern> reported = new IdentityHashMap<>();
    private final Map<Integer, String> ifNames = new HashMap<>();
    private boolean dirty;
    /** Connect times since the last tick, for the metrics; a burst beyond the bound is counted, not timed. */
    private final List<LiveStatus.Connect> connects = new ArrayList<>();
    private static final int MAX_CONNECTS_PER_TICK = 1 << 16;
    private long connectsNotTimed;
    private long lastTick = Long.MIN_VALUE;
    private long nextStream = Long.MIN_VALUE;
    private List<Finding> current = List.of();

    /** Per source: its summary, and libpcap's counters as last read. */
    private static final class Tally {
        final CaptureSummary summary;
        CaptureStats stats = CaptureStats.NONE;

        Tally(CaptureSummary summary) {
            this.summary = summary;
        }
    }

    /**
     * @param reporters   told about each finding, the counters and the final report, in this order
     * @param metrics     told about them after the reporters, and about each DNS query as it is decided; or null
     * @param maxFindings findings listed in full in the final report
     */
    LiveAnalysis(Analysis.Options options, List<Reporter> reporters, LiveMetrics metrics, int maxFindings) {
        this.analysis = new Analysis(options);
        List<Reporter> all = new ArrayList<>(reporters);
        if (metrics != null) {
            all.add(metrics);
        }
        this.reporters = List.copyOf(all);
        this.metrics = metrics;
        this.maxFindings = maxFindings;
        analysis.onDecided(this::decided);
        analysis.onFollowed(a -> dirty |= Rules.classifyConnection(a) != null);
    }

    /** Past the bound on finding groups, new findings make room (see {@link Analysis#keepNewestFindings}). */
    void keepNewestFindings(java.util.function.Consumer<String> say) {
        analysis.keepNewestFindings(say);
    }

    /** A new source; its packets may be added from now on. */
    void register(PacketSource s) {
        tallies.put(s, new Tally(analysis.register(s.capture())));
    }

    void add(Captured c) {
        reorder.add(c);
    }

    /** The time up to which the {@code open} sources are complete, as of wall-clock {@code now}; see {@link Reorder}. */
    long watermark(Collection<? extends PacketSource> open, long now, long window, boolean drained) {
        return reorder.watermark(open, now, window, drained);
    }

    /** Feeds every packet not newer than {@code watermark}, oldest first; returns how many. */
    int release(long watermark) {
        return reorder.release(watermark, this::feed);
    }

    /** The source ended: it delivers nothing more, so it no longer holds packets back. */
    void ended(PacketSource s) {
        reorder.forget(s);
    }

    private void feed(Captured c) {
        PacketSource src = c.source();
        Tally t = tallies.get(src);
        if (t == null) {
            throw new IllegalStateException("packet from unregistered capture " + src.capture());
        }
        Frame f = frame;
        f.nanos = c.nanos();
        f.linkType = src.linkType();
        f.data = c.data();
        f.offset = 0;
        f.capLen = c.data().length;
        f.origLen = c.origLen();
        f.number = c.number();
        f.fileOffset = -1;
        f.capture = src.capture();
        f.interfaceName = src.linkType() == InterfaceCapture.DLT_LINUX_SLL2 ? sll2Interface(c.data()) : null;
        analysis.feed(f, t.summary);
    }

    /** The interface a Linux cooked v2 header names (its index, bytes 4-7), as {@code ip link} shows it. */
    private String sll2Interface(byte[] d) {
        if (d.length < 20) {
            return null;
        }
        int index = ((d[4] & 0xff) << 24) | ((d[5] & 0xff) << 16) | ((d[6] & 0xff) << 8) | (d[7] & 0xff);
        String name = ifNames.get(index);
        if (name == null) {
            try {
                NetworkInterface nif = NetworkInterface.getByIndex(index);
                name = nif != null ? nif.getName() : "ifindex " + index;
            } catch (SocketException e) {
                name = "ifindex " + index;
            }
            if (ifNames.size() > 4096) {
                ifNames.clear();
            }
            ifNames.put(index, name);
        }
        return name;
    }

    /** Moves the tracker's clock to {@code nanos} so that attempts nothing answered get decided. */
    void tick(long nanos) {
        // Never past a packet still held back: its attempt must see it before it is decided.
        nanos = Math.min(nanos, reorder.oldest() - 1);
        if (nanos <= lastTick) {
            return;
        }
        lastTick = nanos;
        analysis.advanceClock(nanos);
    }

    private void decided(Attempt a) {
        if (!dirty && Rules.classify(a) != null) {
            dirty = true;
        }
        if (a.query() != null) {
            if (metrics != null) {
                Ref svc = service(a);
                metrics.dns(svc == null ? "" : svc.namespace(), svc == null ? "" : svc.name(), a.outcome(), a.rcode(),
                        a.connectNanos());
            }
        } else if (!a.udp() && a.outcome() == io.pcapdiag.track.Outcome.ANSWERED) {
            if (connects.size() < MAX_CONNECTS_PER_TICK) {
                Ref svc = service(a);
                connects.add(new LiveStatus.Connect(svc == null ? "" : svc.namespace(), svc == null ? "" : svc.name(),
                        a.connectNanos()));
            } else {
                connectsNotTimed++;
            }
        }
    }

    /** The Service the exchange dialed, as the context names it, or null. */
    private Ref service(Attempt a) {
        return analysis.context().ref(a.target()).filter(r -> Ref.SERVICE.equals(r.kind())).orElse(null);
    }

    /**
     * Reports findings that appeared, or changed pattern, since the last call. Findings are groups, so a
     * connection refused a thousand times is one line, not a thousand: the metrics count the attempts.
     */
    void stream(long now, boolean force) {
        if (!dirty || (!force && now < nextStream)) {
            return;
        }
        long t0 = System.nanoTime();
        Result r = analysis.result();
        Diagnose diagnose = new Diagnose(r.context(), r.citeCaptures(), r.labelledNodes());
        List<Finding> fresh = new ArrayList<>();
        for (Finding f : r.findings()) {
            Pattern before = reported.put(f, f.pattern());
            if (before == null) {
                fresh.add(f);
            } else if (before != f.pattern()) {
                tell(diagnose, f, before, now);
            }
        }
        fresh.sort(Comparator.comparingLong(Finding::firstNanos));
        for (Finding f : fresh) {
            tell(diagnose, f, null, now);
        }
        current = r.findings();
        dirty = false;
        // Grouping and sorting every finding costs time: with very many, look less often.
        nextStream = now + Math.max(MIN_STREAM_NANOS, 20 * (System.nanoTime() - t0));
    }

    private void tell(Diagnose diagnose, Finding f, Pattern before, long now) {
        var d = diagnose.of(f);
        for (Reporter r : reporters) {
            r.finding(d, before, now);
        }
    }

    /** Reads the sources' libpcap counters and tells the reporters where the run stands (metrics follow it). */
    void poll(long now) {
        for (Map.Entry<PacketSource, Tally> e : tallies.entrySet()) {
            e.getValue().stats = e.getKey().stats();
        }
        LiveStatus p = progress(now, now, true);
        for (Reporter r : reporters) {
            r.tick(p);
        }
    }

    /** The periodic summary: findings so far and every interface's counters. */
    void summary(long now, long since) {
        stream(now, true);
        LiveStatus p = progress(now, since, false);
        for (Reporter r : reporters) {
            r.summary(p);
        }
    }

    /** Where the run stands; {@code drain}: hand over (and forget) the connect times gathered since the last tick. */
    private LiveStatus progress(long now, long since, boolean drain) {
        Map<Pattern, Long> findings = new EnumMap<>(Pattern.class);
        Map<Pattern, Long> attempts = new EnumMap<>(Pattern.class);
        for (Pattern p : Pattern.values()) {
            attempts.put(p, 0L);
        }
        for (Finding f : current) {
            findings.merge(f.pattern(), 1L, Long::sum);
            attempts.merge(f.pattern(), f.attempts(), Long::sum);
        }
        List<LiveStatus.Connect> timed = List.of();
        if (drain) {
            timed = List.copyOf(connects);
            connects.clear();
        }
        return new LiveStatus(now, since, analysis.outcomes(), findings, attempts, statuses(), timed, connectsNotTimed);
    }

    /**
     * Ends the analysis as of {@code end}: everything still held back is fed, attempts still open are
     * decided, the last findings are streamed, and every reporter gets the final report.
     *
     * @return the final result
     */
    Result finish(long start, long end) {
        reorder.releaseAll(this::feed);
        // Every packet captured until now has been fed: the capture is complete up to now.
        tick(end);
        Result r = analysis.finish();
        dirty = true;
        stream(end, true);
        poll(end);
        // Without per-capture summaries: reports would call a live capture "not analysed" (it was never
        // opened as a file); the interfaces' own lines say what each captured.
        Result live = new Result(List.of(), r.findings(), r.overflow(), r.outcomes(), r.dnsOutcomes(), r.udpOutcomes(),
                r.tracker(), r.context(),
                r.citeCaptures(), r.attempts(), r.attemptsNotListed());
        Report report = Report.of(live, maxFindings, new Report.Live(start, end, statuses()));
        for (Reporter rep : reporters) {
            rep.report(report);
        }
        return live;
    }

    /** Every source of this run, in the order they were registered. */
    List<InterfaceStatus> statuses() {
        List<InterfaceStatus> out = new ArrayList<>();
        tallies.forEach((src, t) -> {
            CaptureStats s = t.stats;
            out.add(new InterfaceStatus(src.capture().name(), src.device(), LinkTypes.name(src.linkType()),
                    t.summary.packets(), t.summary.truncated(), t.summary.malformed(), s.received(), s.droppedByKernel(),
                    s.droppedByInterface(), src.file() == null ? null : src.file().toString(), src.endReason()));
        });
        return out;
    }

    /** The findings as of the last {@link #stream}. */
    List<Finding> findings() {
        return current;
    }

    /** Packets held back, waiting for older ones. */
    int pending() {
        return reorder.pending();
    }
}
