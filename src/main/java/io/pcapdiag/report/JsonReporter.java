package io.pcapdiag.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.pcapdiag.analysis.CaptureSummary;
import io.pcapdiag.analysis.Result;
import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.LinkTypes;
import io.pcapdiag.diagnosis.AttemptView;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.EvidencePacket;
import io.pcapdiag.diagnosis.PathHop;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Statement;
import io.pcapdiag.track.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code --format json}: the contract of DESIGN.md ("JSON output"), with per-capture statistics. Its own
 * snake_case DTOs: no domain type is serialised as it is.
 */
public final class JsonReporter implements Reporter {
    /** Findings listed in full unless --max-findings says otherwise; the rest are counted in findings_not_listed. */
    public static final int DEFAULT_MAX_FINDINGS = 1000;
    /** Bumped when a key changes meaning or disappears; new keys do not bump it. */
    public static final int SCHEMA = 1;

    /**
     * The streaming factory the reports are written through. Not an ObjectMapper's: setting up Jackson's data binding
     * cost every JSON run 20 ms of start-up, and {@link JsonWriter} writes field by field without it (PERFORMANCE.md).
     */
    static final JsonFactory FACTORY = new JsonFactoryBuilder().characterEscapes(new Surrogates()).build();

    /**
     * Jackson's escapes, and a UTF-16 surrogate as its escape (a backslash, u, four hex digits): a character beyond the
     * BMP is written as the escapes of its pair, a lone surrogate (a snapshot's JSON may hold one) as its own. Standard
     * output's byte generator would write a pair as 4 bytes of UTF-8 and a lone one as its escape, or as bytes that are
     * not UTF-8 when it combines pairs, and a character writer writes them as they are, for its encoder to make '?' of
     * a lone one: the two writers of a report ({@link #generatorOn}) so print the same bytes, and none of them is lost
     * ({@code Utf8PrintWriterTest}). Every other character is written as before: the escapes Jackson makes, UTF-8.
     */
    static final class Surrogates extends CharacterEscapes {
        private final int[] ascii = CharacterEscapes.standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch < Character.MIN_SURROGATE || ch > Character.MAX_SURROGATE) {
                return null;
            }
            return new SerializedString("\\u" + Integer.toHexString(ch).toUpperCase(Locale.ROOT));
        }
    }

    /**
     * Data binding with the document's conventions (snake_case, component order, maps sorted by key, nulls written):
     * what {@link JsonWriter}'s output is held to, and what writes a value of a type it does not know. In a holder
     * class, so that a run that never needs it never builds it.
     */
    static final class Binding {
        static final ObjectMapper MAPPER = new ObjectMapper(FACTORY.copy())
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

        private Binding() {
        }
    }

    /**
     * The document. {@code findings_not_listed}: per pattern, attempts in findings beyond --max-findings or
     * beyond the bound on distinct findings; {@code findings} plus these account for every attempt.
     */
    record Document(int schema, List<FindingDto> findings, Map<String, Long> findingsNotListed,
                    Map<String, Long> attempts, TrackerDto tracker, List<CaptureDto> captures,
                    List<AttemptDto> attemptList, long attemptsNotListed) {
    }

    /** {@code --attempts N}: one attempt, who dialed what, how it ended, where its SYN went. */
    record AttemptDto(String client, int clientPort, long isn, String target, String outcome, String pattern, String responder,
                      int retransmissions, Double connectMs, String firstSyn, List<HopDto> path) {
    }

    record FindingDto(String pattern, String severity, String title, String client, String target, String responder,
                      long attempts, RefDto clientRef, RefDto targetRef, RefDto responderRef, List<CauseDto> causes,
                      long retransmissions, long clientResets, int distinctClientPorts, String firstAttempt,
                      String lastAttempt, List<EvidenceDto> evidence, String displayFilter,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String displayFilterDecodeAs, List<HopDto> path, HopDto lastSeen,
                      String vanishedBetween, ExplanationDto explanation) {
    }

    /** One place of {@code path}: where the SYN was seen. */
    record HopDto(String capture, long frame, String time, String node, @JsonProperty("interface") String iface,
                  String direction, String destination, boolean afterDnat, String tunnel) {
    }

    /** DESIGN.md's {@code *_ref}: {kind, namespace, name, port, node}. */
    record RefDto(String kind, String namespace, String name, String port, String node) {
    }

    /** DESIGN.md's {@code causes[]}: {id, verdict, facts[], fix[]}. */
    record CauseDto(String id, String title, String verdict, List<FactDto> facts, List<String> fix) {
    }

    record FactDto(String source, String text) {
    }

    record EvidenceDto(String role, String capture, long frame, String time, String iface, String summary) {
    }

    record ExplanationDto(String happened, List<StatementDto> statements, List<String> observations, List<String> checks,
                          List<RemedyDto> remedies) {
    }

    /** {@code kind}: seen, fact, cited, likely; {@code basis}: a fact's source, or a citation. */
    record StatementDto(String kind, String text, String basis, List<String> packets) {
    }

    record RemedyDto(String fix, String tradeoff) {
    }

    record TrackerDto(long attempts, long evicted, long peakOpen, int maxOpen, long unmatchedAnswers) {
    }

    record CaptureDto(String file, boolean analysed, long packets, long bytes, List<String> linkTypes, String firstPacket,
                      String lastPacket, long tcp, long icmpErrors, long other, long truncated, long malformed,
                      long skippedRecords, long skippedBytes, Map<String, Long> anomalies, Map<String, Long> attempts,
                      List<String> errors, String label, ClockDto clock) {
    }

    /** A capture of another node, aligned: its clock's offset from the reference node's, from shared attempts. */
    record ClockDto(String reference, long offsetNanos, int sharedAttempts) {
    }

    private final Writer out;

    public JsonReporter(Writer out) {
        this.out = out;
    }

    @Override
    public void report(Report r) {
        try {
            try (com.fasterxml.jackson.core.JsonGenerator g = generatorOn(out)) {
                g.setPrettyPrinter(new Indented());
                JsonWriter.document(g, document(r), true);
            }
            out.write(System.lineSeparator());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The document {@link #report} prints; {@link JsonLinesReporter} prints its parts on lines of their own. */
    static Document document(Report r) {
        List<FindingDto> findings = new ArrayList<>(r.diagnoses().size());
        for (Diagnosis d : r.diagnoses()) {
            findings.add(finding(d));
        }
        Result result = r.result();
        Result.TrackerStats t = result.tracker();
        List<AttemptDto> attempts = new ArrayList<>(r.attempts().size());
        for (AttemptView a : r.attempts()) {
            attempts.add(attempt(a));
        }
        return new Document(SCHEMA, findings, notListed(r.notListed()), outcomes(result.outcomes()),
                new TrackerDto(t.attempts(), t.evicted(), t.peakOpen(), t.maxOpen(), t.unmatchedAnswers()),
                captures(result.captures()), attempts,
                r.attempts().isEmpty() ? 0 : result.attemptsNotListed());
    }

    static AttemptDto attempt(AttemptView a) {
        return new AttemptDto(a.client(), a.clientPort(), a.isn(), a.target(), a.outcome(), a.pattern(), a.responder(),
                a.retransmissions(), a.connectNanos() < 0 ? null : a.connectNanos() / 1e6, Times.utc(a.firstSyn()),
                hops(a.path()));
    }

    static Map<String, Long> notListed(Map<Pattern, Long> m) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Map.Entry<Pattern, Long> e : m.entrySet()) {
            out.put(e.getKey().id(), e.getValue());
        }
        return out;
    }

    /** One finding as the document lists it; {@link JsonLinesReporter} streams the same object. */
    static FindingDto finding(Diagnosis d) {
        Finding f = d.finding();
        List<EvidenceDto> evidence = new ArrayList<>(d.evidence().size());
        for (EvidencePacket p : d.evidence()) {
            evidence.add(new EvidenceDto(p.role().id(), p.capture(), p.frame(), Times.utc(p.nanos()), p.iface(), p.summary()));
        }
        List<CauseDto> causes = new ArrayList<>(d.causes().size());
        for (CauseVerdict c : d.causes()) {
            List<FactDto> facts = new ArrayList<>(c.facts().size());
            for (Fact fact : c.facts()) {
                facts.add(new FactDto(fact.source().id(), fact.text()));
            }
            causes.add(new CauseDto(c.cause().id(), c.cause().title(), c.verdict().id(), facts, c.fix()));
        }
        return new FindingDto(f.pattern().id(), f.severity().id(), f.pattern().title(), f.client().toString(),
                f.target().toString(), f.responder() == null ? null : f.responder().toString(), f.attempts(),
                ref(d.client()), ref(d.target()), ref(d.responder()), causes, f.retransmissions(), f.clientResets(),
                f.distinctClientPorts(), Times.utc(f.firstNanos()), Times.utc(f.lastNanos()), evidence, d.displayFilter(), d.decodeAs(),
                hops(d.path()), d.lastSeen() == null ? null : hop(d.lastSeen()),
                d.vanished(), explanation(d.explanation(), d.citeCaptures()));
    }

    // Loops rather than streams in what runs per finding: a stream pipeline is some 60 more methods for C1 to
    // compile, and interpreted until it has, in a run that lists a thousand findings (PERFORMANCE.md).
    private static List<HopDto> hops(List<PathHop> path) {
        List<HopDto> out = new ArrayList<>(path.size());
        for (PathHop h : path) {
            out.add(hop(h));
        }
        return out;
    }

    private static HopDto hop(PathHop h) {
        return new HopDto(h.capture(), h.frame(), Times.utc(h.nanos()), h.node(), h.iface(), h.direction(), h.destination(),
                h.afterDnat(), h.tunnel());
    }

    private static RefDto ref(Ref r) {
        return r == null ? null : new RefDto(r.kind(), r.namespace(), r.name(), r.port(), r.node());
    }

    private static ExplanationDto explanation(Explanation x, boolean citeCaptures) {
        List<String> told = new ArrayList<>();
        List<StatementDto> statements = new ArrayList<>();
        for (Statement s : x.story()) {
            statements.add(new StatementDto(s.kind().id(), s.text(), s.basis(), TextReporter.refList(s.packets(), citeCaptures)));
            if (s.kind() == Statement.Kind.SEEN || s.kind() == Statement.Kind.FACT) {
                told.add(s.text());
            }
        }
        List<String> observations = new ArrayList<>();
        for (Statement o : x.observations()) {
            observations.add(TextReporter.withRefs(o.text(), o.packets(), citeCaptures));
        }
        List<RemedyDto> remedies = new ArrayList<>();
        for (Explanation.Remedy rem : x.remedies()) {
            remedies.add(new RemedyDto(rem.fix(), rem.tradeoff()));
        }
        return new ExplanationDto(String.join(" ", told), statements, observations, x.checks(), remedies);
    }

    /** Attempts by outcome id, in the outcomes' order, and their total: the {@code attempts} object. */
    public static Map<String, Long> outcomes(Map<Outcome, Long> m) {
        Map<String, Long> out = new LinkedHashMap<>();
        long total = 0;
        for (Outcome o : Outcome.values()) {
            long n = m.getOrDefault(o, 0L);
            out.put(o.id(), n);
            total += n;
        }
        out.put("total", total);
        return out;
    }

    private static List<CaptureDto> captures(List<CaptureSummary> summaries) {
        List<CaptureDto> out = new ArrayList<>(summaries.size());
        for (CaptureSummary s : summaries) {
            out.add(capture(s));
        }
        return List.copyOf(out);
    }

    private static CaptureDto capture(CaptureSummary s) {
        boolean any = s.packets() > 0;
        List<String> linkTypes = new ArrayList<>(s.linkTypes().size());
        for (int l : s.linkTypes()) {
            linkTypes.add(LinkTypes.name(l));
        }
        return new CaptureDto(s.capture().name(), s.opened(), s.packets(), s.bytes(), List.copyOf(linkTypes),
                any ? Times.utc(s.firstNanos()) : null, any ? Times.utc(s.lastNanos()) : null,
                s.tcp(), s.icmpErrors(), s.other(), s.truncated(), s.malformed(), s.skippedRecords(), s.skippedBytes(),
                s.weirds(), outcomes(s.outcomes()), s.errors(), s.capture().label(),
                s.clockOffsetNanos() == null ? null : new ClockDto(s.clockReference(), s.clockOffsetNanos(), s.clockMatched()));
    }

    /**
     * A generator onto {@code out} that flushes it when closed and leaves it open: the reports' every generator. Onto
     * standard output ({@link Utf8PrintWriter}) it writes UTF-8 bytes: node-1x's JSON paired 9.1 ms faster, in 20 of 31
     * pairs (PERFORMANCE.md), the same bytes ({@code Utf8PrintWriterTest}).
     */
    static com.fasterxml.jackson.core.JsonGenerator generatorOn(Writer out) throws IOException {
        if (out instanceof Utf8PrintWriter u) {
            return FACTORY.createGenerator(u.bytes(), com.fasterxml.jackson.core.JsonEncoding.UTF8);
        }
        return FACTORY.createGenerator(new NonClosing(out));
    }

    /** Jackson closes the writer it is given; stdout must stay open for the caller. */
    private static final class NonClosing extends java.io.FilterWriter {
        NonClosing(Writer w) {
            super(w);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
