package io.pcapdiag.analysis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameFilter;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.MergedSource;
import io.pcapdiag.capture.ReadStats;
import io.pcapdiag.capture.ShiftedSource;
import io.pcapdiag.context.CaptureFacts;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.InferredNode;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.ClockOffset;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.rules.Findings;
import io.pcapdiag.rules.RankedFindings;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.HandshakeTracker;
import io.pcapdiag.track.ExchangeKind;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.TrackerSink;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Consumer;

/**
 * One analysis, the pipeline of docs/design.md wired together: frames are counted and decoded, the tracker
 * pairs SYNs with answers, each decided attempt goes to the findings and teaches the capture's context,
 * and {@link #result} groups the findings with what the context knows. Offline it reads captures merged
 * in time order ({@link #read}); live capture feeds frames ({@link #feed}) and asks for results whenever
 * it reports.
 */
public final class Analysis {
    /**
     * Bounds and what is known beyond the packets.
     *
     * @param maxOpen     attempts the tracker holds at once before evicting the oldest
     * @param maxFindings finding groups kept; attempts past it are counted per pattern
     * @param context     sources of context besides the capture itself ({@code --lb-ip}, ...), asked in this order
     * @param listAttempts attempts to list one by one in the report ({@code --attempts}), the first in capture order
     */
    /**
     * @param followConnections follow connections after their handshake (docs/design.md, "Established connections"):
     *                          offline always; live only when its capture keeps every segment ({@code --established})
     */
    public record Options(int maxOpen, int maxFindings, List<Context> context, int listAttempts, boolean followConnections) {
        /** 256 Ki attempts within 3 s of capture is a SYN flood; the bound keeps it to about 50 MB. */
        public static final int DEFAULT_MAX_OPEN = 1 << 18;
        /** Distinct findings held; a flood from random sources would otherwise make one per source. */
        public static final int DEFAULT_MAX_FINDINGS = 50_000;

        public Options {
            context = List.copyOf(context);
        }

        public Options(int maxOpen, int maxFindings, List<Context> context, int listAttempts) {
            this(maxOpen, maxFindings, context, listAttempts, true);
        }

        public Options(int maxOpen, int maxFindings, List<Context> context) {
            this(maxOpen, maxFindings, context, 0);
        }

        public static Options defaults() {
            return new Options(DEFAULT_MAX_OPEN, DEFAULT_MAX_FINDINGS, List.of());
        }
    }

    /** Attempts by their first SYN, the earliest first ({@link Attempt#before}). */
    private static final Comparator<Attempt> FIRST_SYN_FIRST = (x, y) -> x.before(y) ? -1 : y.before(x) ? 1 : 0;

    /** Reads DNS on 53 and on the cluster DNS Service's ports, as the context given at the start knows them. */
    private final Decoder decoder;
    private final Findings findings;
    private final int maxFindings;
    private final HandshakeTracker tracker;
    /** The tracker on this thread: where {@link #feed} takes each frame. */
    private final Tracking direct;
    /** The pipeline's first stage on this thread, for {@link #feed}. */
    private final Stage feeding;
    /** The captures being read ({@link #read}), for the progress of their bytes. */
    private MergedSource reading;
    /** The capture's facts first, then the other sources: what rules, causes and names ask. */
    private final Context context;
    private final List<CaptureSummary> summaries = new ArrayList<>();
    /** {@code --attempts N}: the N attempts whose first SYN came first, the latest of them on top. */
    private final int listAttempts;
    private final PriorityQueue<Attempt> listed;
    private long notListed;
    /** Decided exchanges by kind ({@link ExchangeKind#ordinal()}) and outcome. */
    private final long[][] outcomes = new long[ExchangeKind.values().length][Outcome.values().length];
    private final CaptureFacts captureFacts = new CaptureFacts();
    private Consumer<Attempt> decidedListener = a -> { };
    private Consumer<Attempt> followedListener = a -> { };
    private final boolean followConnections;
    private Consumer<String> problems = line -> { };
    /** Progress for another thread to show: packets and bytes read so far, refreshed every few thousand frames. */
    private volatile long progressPackets;
    private volatile long progressBytes;
    private volatile long totalBytes = -1;
    /** Offline reading on two threads (decode, track) where there is more than one core. */
    private boolean pipelined = Runtime.getRuntime().availableProcessors() > 1;

    public Analysis(Options options) {
        this.findings = new Findings(options.maxFindings());
        this.maxFindings = options.maxFindings();
        this.tracker = new HandshakeTracker(new TrackerSink() {
            @Override
            public boolean decided(Attempt a) {
                return Analysis.this.decided(a);
            }

            @Override
            public boolean followed(Attempt a) {
                return Analysis.this.followed(a);
            }

            @Override
            public void unpairedIcmp(Endpoint destination) {
                captureFacts.unpairedIcmp(destination);
            }

            @Override
            public void unmatchedAnswer() {
                captureFacts.unmatchedAnswer();
            }
        }, options.maxOpen(), options.followConnections());
        followConnections = options.followConnections();
        this.direct = Tracking.direct(tracker, new PacketView());
        this.feeding = new Stage(direct);
        List<Context> sources = new ArrayList<>();
        sources.add(captureFacts);
        sources.addAll(options.context());
        Context given = Context.of(sources);
        // Last: which node the capture is from, inferred when no source says.
        this.context = Context.of(List.of(given, new InferredNode(captureFacts, given)));
        this.decoder = new Decoder(given.dnsPorts());
        this.listAttempts = options.listAttempts();
        this.listed = new PriorityQueue<>(Math.max(1, Math.min(listAttempts, 1 << 16)), Collections.reverseOrder(FIRST_SYN_FIRST));
    }

    /** What the analysis knows beyond the packets: the capture's own facts, then the sources it was given. */
    public Context context() {
        return context;
    }

    /**
     * Whether {@link #read} runs the tracker on a second thread (the default with more than one core).
     * The findings are the same either way; tests compare the two.
     */
    public void setPipelined(boolean pipelined) {
        this.pipelined = pipelined;
    }

    /**
     * Called with every attempt as soon as the tracker decides it (live mode streams from here). The attempt is the
     * listener's only while it is called: the tracker may reuse it afterwards.
     */
    public void onDecided(Consumer<Attempt> listener) {
        this.decidedListener = listener;
    }

    /**
     * Called with every connection followed after its handshake as soon as the tracker decides it (live mode streams
     * from here); the attempt is the listener's only while it is called, as with {@link #onDecided}.
     */
    public void onFollowed(Consumer<Attempt> listener) {
        this.followedListener = listener;
    }

    /** Registers an input; frames must carry this capture. Returns its summary, which the analysis fills. */
    public CaptureSummary register(Capture capture) {
        while (summaries.size() <= capture.index()) {
            summaries.add(null);
        }
        CaptureSummary s = new CaptureSummary(capture);
        summaries.set(capture.index(), s);
        // Several inputs: a sentence citing a packet names its capture.
        captureFacts.citeCaptures(summaries.size() > 1);
        return s;
    }

    public CaptureSummary summary(Capture capture) {
        return summaries.get(capture.index());
    }

    /** Takes one frame through the pipeline on this thread (live capture feeds each here). Its bytes are not kept. */
    public void feed(Frame f, CaptureSummary s) {
        if (!feeding.take(f, s)) {
            handOver(direct, f);
        }
    }

    /**
     * Hands the frame the first stage decoded into {@code tracking}'s view over; then each further DNS message its TCP
     * segment holds (glibc sends its A and AAAA queries in one), decoded as the frame's DNS message, the same way.
     */
    private void handOver(Tracking tracking, Frame f) {
        boolean more = tracking.view().dnsMore;
        tracking.observe(f);
        for (int m = 1; more; m++) {
            PacketView v = tracking.view();
            try {
                decoder.decode(f, v, m);
            } catch (RuntimeException e) {
                undecodable(f, e, "its DNS message " + (m + 1) + " and those after it not read");
                return;
            }
            more = v.dnsMore;
            tracking.observe(f);
        }
    }

    /** The one line that says a frame's decoding failed unexpectedly, and what it cost. */
    private void undecodable(Frame f, RuntimeException e, String cost) {
        problems.accept(f.capture.name() + ": offset " + f.fileOffset + ": frame " + f.number + " could not be decoded ("
                + e + "); " + cost);
    }

    /**
     * The per-packet pipeline's first stage, one frame: counted in its capture's summary and decoded into the tracking's
     * view. A frame that does not concern the tracker is taken here (it only moves the tracker's clock); one that does
     * is left in the view for the caller to hand over ({@link Tracking#observe}).
     * Offline the capture's source offers it every frame from its read loop ({@link MergedSource#next(FrameFilter)}),
     * so that only those few leave the reader; live, {@link #feed} offers each.
     */
    private final class Stage implements FrameFilter {
        private final Tracking tracking;
        /** The capture of the frame before, and its summary: consecutive frames are mostly of the same capture. */
        private Capture capture;
        private CaptureSummary summary;
        private long frames;

        Stage(Tracking tracking) {
            this.tracking = tracking;
        }

        @Override
        public boolean take(Frame f) {
            if (f.capture != capture) {
                capture = f.capture;
                summary = summaries.get(capture.index());
            }
            if ((++frames & 0xfff) == 0) {
                publishProgress(frames);
            }
            try {
                return take(f, summary);
            } catch (RuntimeException e) {
                // On one thread the tracker runs in here, inside the source's read loop: a bug of its is not the reader's.
                throw new FrameFilter.Failure(e);
            }
        }

        boolean take(Frame f, CaptureSummary s) {
            s.countFrame(f.nanos, f.linkType);
            PacketView v = tracking.view();
            boolean concerns = decode(f, v, s);
            s.count(v.kind, v);
            if (concerns) {
                return false;
            }
            tracking.advanceClock(f.nanos);
            return true;
        }
    }

    /**
     * Decodes {@code f} into {@code v}; true when it concerns the tracker (a mid-connection segment is counted and moves
     * the clock, nothing more). An unexpected failure on one packet costs that packet, not the report: it is counted as
     * malformed, said in one line with the capture and the offset, and the analysis goes on (as gopacket's
     * DecodeFailure layer does).
     */
    private boolean decode(Frame f, PacketView v, CaptureSummary s) {
        try {
            decoder.decode(f, v);
            return HandshakeTracker.concerns(v, followConnections);
        } catch (RuntimeException e) {
            v.reset();
            v.kind = PacketView.Kind.UNDECODABLE;
            s.decoderFailure(f);
            undecodable(f, e, "counted as malformed");
            return false;
        }
    }

    /**
     * Live: once the bound on finding groups is reached, the stalest group makes room for each new one, so that new
     * findings keep coming; {@code say} is told the first time.
     */
    public void keepNewestFindings(Consumer<String> say) {
        findings.evictStalestWhenFull(() -> say.accept(maxFindings + " distinct findings: from now on the one that has"
                + " not grown for longest is dropped for each new one (it was streamed when found; its attempts are counted"
                + " as not grouped in the final report)"));
    }

    /**
     * Capture time moved on without a packet (live capture in silence): the tracker decides the attempts
     * whose time is up, as a packet stamped {@code nanos} would have made it.
     */
    public void advanceClock(long nanos) {
        tracker.advanceClock(nanos);
    }

    /** Everything a decided attempt teaches; true when a finding or the attempt list holds on to it. */
    private boolean decided(Attempt a) {
        outcomes[a.kind().ordinal()][a.outcome().ordinal()]++;
        summaries.get(a.synCapture().index()).decided(a.kind(), a.outcome());
        captureFacts.decided(a);
        decidedListener.accept(a);
        boolean held = findings.decided(a);
        if (listAttempts > 0) {
            listed.add(a);
            if (listed.size() > listAttempts) {
                notListed++;
                held |= listed.poll() != a;
            } else {
                held = true;
            }
        }
        return held;
    }

    /**
     * A connection followed after its handshake is decided: counted, and grouped into its finding when it shows a
     * pattern; true when the finding holds on to it.
     */
    private boolean followed(Attempt a) {
        followedListener.accept(a);
        return findings.followed(a);
    }

    /**
     * Reads every capture, merged in time order, reporting problems through {@code errors} as one line
     * each; a capture that fails does not stop the others.
     */
    public void read(List<Capture> captures, MergedSource.Opener reader, Consumer<String> errors) {
        problems = errors;
        for (Capture c : captures) {
            register(c);
        }
        // Captures of several nodes: their clocks are aligned from the attempts they share (one more read).
        Map<String, ClockOffset> offsets = ClockOffsets.estimate(captures, reader);
        for (Capture c : captures) {
            summary(c).aligned(c.node() == null ? null : offsets.get(c.node()));
        }
        MergedSource merged = new MergedSource(captures, c -> {
            FrameSource src = reader.open(c);
            ClockOffset o = c.node() == null ? null : offsets.get(c.node());
            return o == null ? src : new ShiftedSource(src, -o.nanos());
        }, new MergedSource.Listener() {
            @Override
            public void opened(Capture capture) {
                summary(capture).opened(true);
            }

            @Override
            public void problem(Capture capture, CaptureException e) {
                summary(capture).problem(e.oneLine());
                errors.accept(e.oneLine());
            }

            @Override
            public void ended(Capture capture, ReadStats stats) {
                summary(capture).ended(stats);
            }
        });
        totalBytes = merged.totalBytes();
        reading = merged;
        // Two stages where there are two cores: this thread reads, counts and decodes; the tracker runs on the other.
        Tracking tracking = pipelined ? new TrackingThread(tracker) : direct;
        Stage stage = new Stage(tracking);
        try {
            for (Frame f = merged.next(stage); f != null; f = merged.next(stage)) {
                handOver(tracking, f);
            }
        } catch (FrameFilter.Failure e) {
            throw e.getCause();
        }
        publishProgress(stage.frames);
        tracking.finish();
    }

    private void publishProgress(long packets) {
        if (reading != null) {
            progressBytes = reading.bytesRead();
            progressPackets = packets;
        }
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
        return finish(Integer.MAX_VALUE);
    }

    /**
     * {@link #finish()} for a report that lists the first {@code ranked} findings: only those are put in order now,
     * the others when they are asked for ({@link RankedFindings}).
     */
    public Result finish(int ranked) {
        tracker.finish();
        return result(ranked);
    }

    /** The findings so far (live mode reports these periodically without ending the capture). */
    public Result result() {
        return result(Integer.MAX_VALUE);
    }

    private Result result(int ranked) {
        List<CaptureSummary> caps = new ArrayList<>();
        for (CaptureSummary s : summaries) {
            if (s != null) {
                caps.add(s);
            }
        }
        List<Attempt> sorted = new ArrayList<>(listed);
        sorted.sort(FIRST_SYN_FIRST);
        RankedFindings grouped = findings.results(context, ranked);
        List<Result.Listed> attempts = new ArrayList<>(sorted.size());
        for (Attempt a : sorted) {
            attempts.add(new Result.Listed(a, findings.patternOf(a)));
        }
        return new Result(caps, grouped, findings.overflow(), outcomes(ExchangeKind.TCP), outcomes(ExchangeKind.DNS),
                outcomes(ExchangeKind.UDP),
                new Result.TrackerStats(tracker.attempts(), tracker.evicted(), tracker.peakOpen(), tracker.maxOpen(),
                        tracker.unmatchedAnswers(), tracker.connectionsFollowed(), tracker.connectionsEvicted()), context, caps.size() > 1, attempts, notListed);
    }

    /** TCP connection attempts decided so far, by outcome. */
    public Map<Outcome, Long> outcomes() {
        return outcomes(ExchangeKind.TCP);
    }

    /** Exchanges of one kind decided so far, by outcome. */
    public Map<Outcome, Long> outcomes(ExchangeKind kind) {
        return CaptureSummary.counts(outcomes[kind.ordinal()]);
    }
}
