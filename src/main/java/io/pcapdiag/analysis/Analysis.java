package io.pcapdiag.analysis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.TimeOrderedSource;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.decode.Prefilter;
import io.pcapdiag.rules.Findings;
import io.pcapdiag.rules.Rules;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Endpoint;
import io.pcapdiag.track.HandshakeTracker;
import io.pcapdiag.track.Outcome;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One analysis: frames in, a {@link Result} out. Offline it reads captures merged by timestamp; live
 * capture feeds frames through {@link #feed} and asks for results whenever it reports.
 */
public final class Analysis {
    /**
     * Bounds and context.
     *
     * @param maxOpen     attempts the tracker holds at once before evicting the oldest
     * @param maxFindings finding groups kept; attempts past it are counted per pattern
     * @param vips        addresses known to be LoadBalancer ingress IPs ({@code --lb-ip})
     */
    public record Options(int maxOpen, int maxFindings, Set<Endpoint> vips) {
        /** 256 Ki attempts within 3 s of capture is a SYN flood; the bound keeps it to about 50 MB. */
        public static final int DEFAULT_MAX_OPEN = 1 << 18;
        /** Distinct findings held; a flood from random sources would otherwise make one per source. */
        public static final int DEFAULT_MAX_FINDINGS = 50_000;

        public static Options defaults() {
            return new Options(DEFAULT_MAX_OPEN, DEFAULT_MAX_FINDINGS, Set.of());
        }
    }

    private final Decoder decoder = new Decoder();
    private final PacketView view = new PacketView();
    private final Findings findings;
    private final HandshakeTracker tracker;
    private final Set<Endpoint> vips;
    private final Set<Endpoint> rejectingVips = new HashSet<>();
    private final List<CaptureSummary> summaries = new ArrayList<>();
    private final long[] outcomes = new long[Outcome.values().length];
    private Consumer<Attempt> decidedListener = a -> { };
    /** Progress for another thread to show: packets and bytes read so far, refreshed every few thousand frames. */
    private volatile long progressPackets;
    private volatile long progressBytes;
    private volatile long totalBytes = -1;
    private long packetsRead;
    /** Pipelined reads: the latest capture time read so far (the first stage's clock). */
    private long readClock;
    /** Offline reading on two threads (decode, track) where there is more than one core. */
    private boolean pipelined = Runtime.getRuntime().availableProcessors() > 1;

    public Analysis(Options options) {
        this.findings = new Findings(options.maxFindings());
        this.tracker = new HandshakeTracker(this::decided, options.maxOpen());
        this.vips = Set.copyOf(options.vips());
    }

    /**
     * Whether {@link #read} runs the tracker on a second thread (the default with more than one core).
     * The findings are the same either way; tests compare the two.
     */
    public void setPipelined(boolean pipelined) {
        this.pipelined = pipelined;
    }

    /** Called with every attempt as soon as the tracker decides it (live mode streams from here). */
    public void onDecided(Consumer<Attempt> listener) {
        this.decidedListener = listener;
    }

    /** Registers an input; frames must carry this capture. Returns its summary to fill. */
    public CaptureSummary register(Capture capture) {
        while (summaries.size() <= capture.index()) {
            summaries.add(null);
        }
        CaptureSummary s = new CaptureSummary(capture);
        summaries.set(capture.index(), s);
        return s;
    }

    public CaptureSummary summary(Capture capture) {
        return summaries.get(capture.index());
    }

    /** Decodes one frame and feeds the tracker. The frame's bytes are not kept. */
    public void feed(Frame f, CaptureSummary s) {
        if (countedAsPlain(f, s)) {
            tracker.advanceClock(f.nanos);
            return;
        }
        count(decoder.decode(f, view), view, s);
        tracker.observe(f, view);
    }

    /**
     * Capture time moved on without a packet (live capture in silence): the tracker decides the attempts
     * whose time is up, as a packet stamped {@code nanos} would have made it.
     */
    public void advanceClock(long nanos) {
        tracker.advanceClock(nanos);
    }

    /** Counts the frame; true when the prefilter shows it is a plain segment the tracker need not see. */
    private static boolean countedAsPlain(Frame f, CaptureSummary s) {
        s.packets++;
        if (f.nanos < s.firstNanos) {
            s.firstNanos = f.nanos;
        }
        if (f.nanos > s.lastNanos) {
            s.lastNanos = f.nanos;
        }
        if (f.linkType != s.lastLinkType) {
            s.lastLinkType = f.linkType;
            s.linkTypes.add(f.linkType);
        }
        if (Prefilter.plainSegment(f)) {
            s.tcp++;
            return true;
        }
        return false;
    }

    private static void count(PacketView.Kind kind, PacketView v, CaptureSummary s) {
        switch (kind) {
            case TCP -> s.tcp++;
            case ICMP_ERROR -> s.icmpErrors++;
            case OTHER -> s.other++;
            case UNDECODABLE -> { }
        }
        if (v.weird != null) {
            if (v.truncated) {
                s.truncated++;
            } else {
                s.malformed++;
            }
            s.weirds.merge(v.weird, 1L, Long::sum);
        }
    }

    private void decided(Attempt a) {
        outcomes[a.outcome().ordinal()]++;
        summaries.get(a.synCapture().index()).outcomes[a.outcome().ordinal()]++;
        findings.decided(a);
        if (a.outcome() == Outcome.REJECTED && a.icmp().source().sameAddress(a.target())) {
            rejectingVips.add(a.target().withoutPort());
        }
        decidedListener.accept(a);
    }

    /**
     * Reads every capture, merged in timestamp order, reporting problems through {@code errors} as one
     * line each; a capture that fails does not stop the others.
     */
    public void read(List<Capture> captures, Reader reader, Consumer<String> errors) {
        List<Open> open = new ArrayList<>();
        for (Capture c : captures) {
            CaptureSummary s = register(c);
            try {
                FrameSource src = reader.open(c);
                if (src.interleavesInterfaces()) {
                    src = new TimeOrderedSource(src);
                }
                s.opened = true;
                src.onProblem(e -> {
                    s.errors.add(e.oneLine());
                    errors.accept(e.oneLine());
                });
                open.add(new Open(src, s));
            } catch (CaptureException e) {
                s.errors.add(e.oneLine());
                errors.accept(e.oneLine());
            }
        }
        long total = 0;
        for (Open o : open) {
            long size = o.source.stats().sizeHint;
            total = size < 0 || total < 0 ? -1 : total + size;
        }
        totalBytes = total;
        // Two stages where there are two cores: this thread reads, counts and decodes what the prefilter
        // lets through; the tracker runs on the other core. Each packet handed over carries the capture
        // time of everything read before it (plain segments included), and the tracker advances to it
        // first, so attempts are decided at the same points as in feed(): the findings are identical.
        TrackingThread stage = pipelined ? new TrackingThread(tracker) : null;
        readClock = Long.MIN_VALUE;
        forEachFrame(open, errors, stage);
        if (stage != null) {
            stage.finish(readClock);
        }
    }

    /** One frame of an offline read: {@link #feed}, or the first stage's half of it when pipelined. */
    private void accept(Frame f, CaptureSummary s, TrackingThread stage) {
        if (stage == null) {
            feed(f, s);
            return;
        }
        if (!countedAsPlain(f, s)) {
            TrackingThread.Slot slot = stage.slot();
            PacketView.Kind kind = decoder.decode(f, slot.view);
            count(kind, slot.view, s);
            if (kind == PacketView.Kind.TCP || kind == PacketView.Kind.ICMP_ERROR) {
                stage.commit(f, readClock);
            }
        }
        if (f.nanos > readClock) {
            readClock = f.nanos;
        }
    }

    /**
     * Delivers every frame of the open captures, merged in time order, to {@link #accept}, and closes
     * them. Direct calls rather than a callback: C1, which compiles short runs, inlines no interface call.
     */
    private void forEachFrame(List<Open> open, Consumer<String> errors, TrackingThread stage) {
        if (open.size() == 1) {
            Open o = open.get(0);
            try {
                for (Frame f = o.next(errors); f != null; f = o.next(errors)) {
                    accept(f, o.summary, stage);
                    progress(open);
                }
            } finally {
                o.close();
            }
            return;
        }
        // Time order; on equal timestamps the capture named first goes first, so the merge is deterministic.
        PriorityQueue<Open> heads = new PriorityQueue<>((x, y) -> x.frame.nanos != y.frame.nanos
                ? Long.compare(x.frame.nanos, y.frame.nanos)
                : Integer.compare(x.summary.capture().index(), y.summary.capture().index()));
        for (Open o : open) {
            if (o.advance(errors)) {
                heads.add(o);
            }
        }
        while (!heads.isEmpty()) {
            Open o = heads.poll();
            accept(o.frame, o.summary, stage);
            progress(open);
            if (o.advance(errors)) {
                heads.add(o);
            }
        }
    }

    private void progress(List<Open> open) {
        if ((++packetsRead & 0xfff) == 0) {
            publishProgress(open);
        }
    }

    private void publishProgress(List<Open> open) {
        long bytes = 0;
        for (Open o : open) {
            bytes += o.source.stats().bytes;
        }
        progressBytes = bytes;
        progressPackets = packetsRead;
    }

    /** Packets read so far (refreshed every 4096), for a progress display on another thread. */
    public long progressPackets() {
        return progressPackets;
    }

    /** Bytes of the inputs read so far (refreshed every 4096 packets). */
    public long progressBytes() {
        return progressBytes;
    }

    /** Total size of the inputs, or -1 when one of them has no known size (stdin). */
    public long totalBytes() {
        return totalBytes;
    }

    /** Decides what is still open as of the last packet: end of capture. */
    public Result finish() {
        tracker.finish();
        return result();
    }

    /** The findings so far (live mode reports these periodically without ending the capture). */
    public Result result() {
        // Addresses whose SYNs were seen DNAT'ed: one set, so each unanswered group is one lookup.
        Set<Endpoint> natAddresses = new HashSet<>();
        for (Endpoint t : tracker.natTargets()) {
            natAddresses.add(t.withoutPort());
        }
        Rules.Context context = new Rules.Context() {
            @Override
            public boolean answersOthers(Endpoint target, Endpoint client) {
                return findings.answersOthers(target, client);
            }

            @Override
            public boolean isVip(Endpoint address) {
                Endpoint a = address.withoutPort();
                return vips.contains(a) || rejectingVips.contains(a) || natAddresses.contains(a);
            }

            @Override
            public long cutQuotesTo(Endpoint client) {
                return tracker.cutQuotes().getOrDefault(client.withoutPort(), 0L);
            }
        };
        List<CaptureSummary> caps = new ArrayList<>();
        for (CaptureSummary s : summaries) {
            if (s != null) {
                caps.add(s);
            }
        }
        return new Result(caps, findings.results(context), findings.overflow(), counts(outcomes),
                new Result.TrackerStats(tracker.attempts(), tracker.evicted(), tracker.peakOpen(), tracker.maxOpen(),
                        tracker.unmatchedAnswers()));
    }

    static Map<Outcome, Long> counts(long[] byOrdinal) {
        EnumMap<Outcome, Long> m = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            m.put(o, byOrdinal[o.ordinal()]);
        }
        return m;
    }

    /** An open source and its current frame. */
    private static final class Open {
        final FrameSource source;
        final CaptureSummary summary;
        Frame frame;

        Open(FrameSource source, CaptureSummary summary) {
            this.source = source;
            this.summary = summary;
        }

        Frame next(Consumer<String> errors) {
            try {
                frame = source.next();
            } catch (CaptureException e) {
                summary.errors.add(e.oneLine());
                errors.accept(e.oneLine());
                frame = null;
            }
            if (frame == null) {
                summary.read = source.stats();
            }
            return frame;
        }

        boolean advance(Consumer<String> errors) {
            if (next(errors) == null) {
                close();
                return false;
            }
            return true;
        }

        void close() {
            summary.read = source.stats();
            try {
                source.close();
            } catch (IOException ignored) {
                // Everything was read; a failing close loses nothing.
            }
        }
    }
}
