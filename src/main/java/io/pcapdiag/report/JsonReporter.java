package io.pcapdiag.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.LinkTypes;
import io.pcapdiag.diagnosis.AttemptView;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.PathHop;
import io.pcapdiag.diagnosis.Concern;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Statement;
import io.pcapdiag.track.DnsQuery;
import io.pcapdiag.track.ExchangeKind;
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
 * {@code --format json}: the contract of docs/design.md ("JSON output"), with per-capture statistics. Its own
 * snake_case DTOs: no domain type is serialised as it is. The records below are the schema, written by data
 * binding; {@link JsonLinesReporter} writes the same records a line at a time.
 */
public final class JsonReporter implements Reporter {
    /** Findings listed in full unless --max-findings says otherwise; the rest are counted in findings_not_listed. */
    public static final int DEFAULT_MAX_FINDINGS = 1000;
    /**
     * {@code schema_version} of the document and of every JSON Lines line (node facts keep their own count under the
     * same name): bumped when a key changes meaning or disappears; new keys do not bump it. 2: times in RFC 3339,
     * addresses and ports beside the {@code ip:port} strings, evidence's interface and direction apart, statements'
     * packets as frame numbers (docs/design.md, "JSON output").
     */
    public static final int SCHEMA_VERSION = 2;

    /**
     * The generators the document and the JSON Lines are written through ({@link JsonRecords}): every surrogate
     * escaped ({@link Surrogates}); a generator neither closes nor flushes the writer it is given: the reporters flush
     * once a document or a live line is whole.
     */
    static final JsonFactory FACTORY = new JsonFactoryBuilder()
            .characterEscapes(new Surrogates())
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
            .build();

    /** Writes {@code value} onto {@code out} as {@link JsonRecords} does, laid out by Jackson's pretty printer if asked. */
    static void write(Writer out, Object value, boolean pretty) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            if (pretty) {
                g.useDefaultPrettyPrinter();
            }
            JsonRecords.write(g, value);
        }
    }

    /**
     * Jackson's escapes, and a UTF-16 surrogate as its escape (a backslash, u, four hex digits): a character beyond the
     * BMP is written as the escapes of its pair, a lone surrogate (a snapshot's JSON may hold one) as its own, where
     * the writer's UTF-8 encoder would make '?' of it: nothing a snapshot or a label holds is lost.
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
     * The document. {@code findings_not_listed}: per pattern, attempts in findings beyond --max-findings or
     * beyond the bound on distinct findings; {@code findings} plus these account for every attempt. JSON Lines
     * leaves {@code findings} and {@code attempt_list} out of its report line ({@link #withoutLists}) when it
     * wrote them on lines of their own.
     */
    record Document(int schemaVersion, @JsonInclude(JsonInclude.Include.NON_NULL) List<FindingDto> findings,
                    Map<String, Long> findingsNotListed, Map<String, Long> attempts, Map<String, Long> dnsQueries,
                    Map<String, Long> udpExchanges, TrackerDto tracker,
                    @JsonInclude(JsonInclude.Include.NON_NULL) List<CaptureDto> captures,
                    @JsonInclude(JsonInclude.Include.NON_NULL) List<AttemptDto> attemptList, long attemptsNotListed,
                    @JsonInclude(JsonInclude.Include.NON_NULL) SelectionDto selection) {
        /** The document less its lists, which JSON Lines writes a line per entry. */
        Document withoutLists() {
            return new Document(schemaVersion, null, findingsNotListed, attempts, dnsQueries, udpExchanges, tracker, null, null,
                    attemptsNotListed, selection);
        }
    }

    /**
     * {@code --service}, {@code --pod}, {@code --host}: what the findings were selected by, how many concern it and how
     * many there are in all; absent without them.
     */
    record SelectionDto(List<String> service, List<String> pod, List<String> host, int findingsConcerned,
                        int findingsTotal) {
    }

    /** {@code --attempts N}: one attempt, who dialed what, how it ended, where its SYN went. */
    record AttemptDto(String client, int clientPort, Long isn, String target, String targetIp, int targetPort,
                      String outcome, String pattern, String responder, String responderIp, Integer responderPort,
                      int retransmissions, Double connectMs, String firstSyn, List<HopDto> path, String kind,
                      @JsonInclude(JsonInclude.Include.NON_NULL) QueryDto query,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String rcode) {
    }

    /** A DNS query: its transaction id, question name (null when it carried none) and type as dig names it. */
    record QueryDto(String name, String type, int id) {
        static QueryDto of(DnsQuery q) {
            return q == null ? null : new QueryDto(q.name(), DnsQuery.typeName(q.type()), q.id());
        }
    }

    /** An rcode's name, or null when there is none. */
    private static String rcode(int rcode) {
        return rcode < 0 ? null : DnsQuery.rcodeName(rcode);
    }

    record FindingDto(String pattern, String severity, String title, String client, String target, String targetIp,
                      Integer targetPort, String responder, String responderIp, Integer responderPort, long attempts,
                      @JsonInclude(JsonInclude.Include.NON_NULL) QueryDto query,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String rcode, RefDto clientRef, RefDto targetRef, RefDto responderRef, List<CauseDto> causes,
                      long retransmissions, long clientResets, int distinctClientPorts, String firstAttempt,
                      String lastAttempt, List<EvidenceDto> evidence, String displayFilter,
                      @JsonInclude(JsonInclude.Include.NON_NULL) String displayFilterDecodeAs, List<HopDto> path,
                      HopDto lastSeen, String vanishedBetween, ExplanationDto explanation) {
        /** The same finding with another path: JSON Lines' bounded one. */
        FindingDto withPath(List<HopDto> p) {
            return new FindingDto(pattern, severity, title, client, target, targetIp, targetPort, responder,
                    responderIp, responderPort, attempts, query, rcode, clientRef, targetRef, responderRef, causes, retransmissions, clientResets,
                    distinctClientPorts, firstAttempt, lastAttempt, evidence, displayFilter, displayFilterDecodeAs, p,
                    lastSeen, vanishedBetween, explanation);
        }
    }

    /** One place of {@code path}: where the SYN was seen. */
    record HopDto(String capture, long frame, String time, String node, @JsonProperty("interface") String iface,
                  String direction, String destination, String destinationIp, Integer destinationPort,
                  boolean afterDnat, String tunnel) {
    }

    /** docs/design.md's {@code *_ref}: {kind, namespace, name, port, node}. */
    record RefDto(String kind, String namespace, String name, String port, String node) {
    }

    /** docs/design.md's {@code causes[]}: {id, verdict, facts[], fix[]}. */
    record CauseDto(String id, String title, String verdict, List<FactDto> facts, List<String> fix) {
    }

    record FactDto(String source, String text) {
    }

    /** One evidence packet; {@code interface} and {@code direction} as in {@code path}. */
    record EvidenceDto(String role, String capture, long frame, String time, @JsonProperty("interface") String iface,
                       String direction, String summary) {
    }

    record ExplanationDto(String happened, List<StatementDto> statements, List<String> observations, List<String> checks,
                          List<RemedyDto> remedies) {
    }

    /** {@code kind}: seen, fact, cited, likely; {@code basis}: a fact's source, or a citation. */
    record StatementDto(String kind, String text, String basis, List<PacketDto> packets) {
    }

    /** A packet a statement rests on: its capture and frame number there. */
    record PacketDto(String capture, long frame) {
    }

    record RemedyDto(String fix, String tradeoff) {
    }

    record TrackerDto(long attempts, long evicted, long peakOpen, int maxOpen, long unmatchedAnswers,
                      long connectionsFollowed, long connectionsEvicted) {
    }

    record CaptureDto(String file, boolean analysed, long packets, long bytes, List<String> linkTypes, String firstPacket,
                      String lastPacket, long tcp, long icmpErrors, long other, long truncated, long malformed,
                      long skippedRecords, long skippedBytes, Map<String, Long> anomalies, Map<String, Long> attempts,
                      Map<String, Long> dnsQueries, Map<String, Long> udpExchanges, List<String> errors, String label, ClockDto clock) {
    }

    /** A capture of another node, aligned: its clock's offset from the reference node's, from shared attempts. */
    record ClockDto(String reference, long offsetNanos, int sharedAttempts) {
    }

    private final Writer out;

    public JsonReporter(Writer out) {
        this.out = out;
    }

    /** The document, laid out by Jackson's default pretty printer, and the line's end. */
    @Override
    public void report(Report r) {
        try {
            write(out, document(r), true);
            out.write(System.lineSeparator());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The document {@link #report} prints; {@link JsonLinesReporter} prints its parts on lines of their own. */
    static Document document(Report r) {
        Result result = r.result();
        Result.TrackerStats t = result.tracker();
        return new Document(SCHEMA_VERSION, r.diagnoses().stream().map(JsonReporter::finding).toList(), byId(r.notListed()),
                outcomes(result.outcomes()), outcomes(result.dnsOutcomes()), outcomes(result.udpOutcomes()),
                new TrackerDto(t.attempts(), t.evicted(), t.peakOpen(), t.maxOpen(), t.unmatchedAnswers(),
                        t.connectionsFollowed(), t.connectionsEvicted()),
                result.captures().stream().map(JsonReporter::capture).toList(),
                r.attempts().stream().map(JsonReporter::attempt).toList(),
                r.attempts().isEmpty() ? 0 : result.attemptsNotListed(), selection(r));
    }

    private static SelectionDto selection(Report r) {
        Concern c = r.concern();
        return c.all() ? null : new SelectionDto(c.services(), c.pods(),
                c.hosts().stream().map(Concern.Prefix::typed).toList(), r.concerned(), r.findingCount());
    }

    static AttemptDto attempt(AttemptView a) {
        Endpoint target = a.target();
        Endpoint responder = a.responder();
        return new AttemptDto(a.client().toString(), a.clientPort(), a.kind() == ExchangeKind.TCP ? a.isn() : null,
                target.toString(), target.address(), target.port(), a.outcome(), a.pattern(), string(responder), ip(responder),
                port(responder), a.retransmissions(), a.connectNanos() < 0 ? null : a.connectNanos() / 1e6,
                Times.rfc3339(a.firstSyn()), hops(a.path()), a.kind().name().toLowerCase(java.util.Locale.ROOT),
                QueryDto.of(a.query()), rcode(a.rcode()));
    }

    /** Counts by pattern id, in the order given (the document's maps are sorted by key when written). */
    static Map<String, Long> byId(Map<Pattern, Long> m) {
        Map<String, Long> out = new LinkedHashMap<>();
        m.forEach((pattern, n) -> out.put(pattern.id(), n));
        return out;
    }

    /** One finding as the document lists it; {@link JsonLinesReporter} streams the same object. */
    static FindingDto finding(Diagnosis d) {
        Finding f = d.finding();
        List<EvidenceDto> evidence = d.evidence().stream()
                .map(p -> new EvidenceDto(p.role().id(), p.capture(), p.frame(), Times.rfc3339(p.nanos()),
                        p.interfaceName(), p.direction(), p.summary()))
                .toList();
        List<CauseDto> causes = d.causes().stream().map(JsonReporter::cause).toList();
        return new FindingDto(f.pattern().id(), f.severity().id(), f.pattern().title(), f.client().toString(),
                f.target().toString(), f.target().address(), port(f.target()), string(f.responder()), ip(f.responder()),
                port(f.responder()), f.attempts(), f.pattern().dns() ? QueryDto.of(f.examples().get(0).query()) : null,
                f.pattern().dns() ? rcode(f.examples().get(0).rcode()) : null, ref(d.client()), ref(d.target()), ref(d.responder()), causes,
                f.retransmissions(), f.clientResets(), f.distinctClientPorts(), Times.rfc3339(f.firstNanos()),
                Times.rfc3339(f.lastNanos()), evidence, d.displayFilter(), d.decodeAs(),
                hops(d.path()), d.lastSeen() == null ? null : hop(d.lastSeen()),
                d.vanished(), explanation(d.explanation(), d.citeCaptures()));
    }

    /** {@code ip:port} ({@code [addr]:port} for IPv6), the address alone, or null. */
    private static String string(Endpoint e) {
        return e == null ? null : e.toString();
    }

    private static String ip(Endpoint e) {
        return e == null ? null : e.address();
    }

    /** The port, or null where there is none (an ICMP error's source). */
    private static Integer port(Endpoint e) {
        return e == null || e.port() == Endpoint.NO_PORT ? null : e.port();
    }

    private static CauseDto cause(CauseVerdict c) {
        List<FactDto> facts = c.facts().stream().map(fact -> new FactDto(fact.source().id(), fact.text())).toList();
        return new CauseDto(c.cause().id(), c.cause().title(), c.verdict().id(), facts, c.fix());
    }

    private static List<HopDto> hops(List<PathHop> path) {
        return path.stream().map(JsonReporter::hop).toList();
    }

    private static HopDto hop(PathHop h) {
        Endpoint dst = h.destination();
        return new HopDto(h.capture(), h.frame(), Times.rfc3339(h.nanos()), h.node(), h.iface(), h.direction(),
                dst.toString(), dst.address(), port(dst), h.afterDnat(), h.tunnel());
    }

    private static RefDto ref(Ref r) {
        return r == null ? null : new RefDto(r.kind(), r.namespace(), r.name(), r.port(), r.node());
    }

    private static ExplanationDto explanation(Explanation x, boolean citeCaptures) {
        List<String> told = new ArrayList<>();
        List<StatementDto> statements = new ArrayList<>();
        for (Statement s : x.story()) {
            List<PacketDto> packets = s.packets().stream().map(p -> new PacketDto(p.capture.name(), p.frame))
                    .distinct().toList();
            statements.add(new StatementDto(s.kind().id(), s.text(), s.basis(), packets));
            if (s.kind() == Statement.Kind.SEEN || s.kind() == Statement.Kind.FACT) {
                told.add(s.text());
            }
        }
        List<String> observations = x.observations().stream()
                .map(o -> TextReporter.withRefs(o.text(), o.packets(), citeCaptures))
                .toList();
        List<RemedyDto> remedies = x.remedies().stream().map(rem -> new RemedyDto(rem.fix(), rem.tradeoff())).toList();
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

    private static CaptureDto capture(CaptureSummary s) {
        boolean any = s.packets() > 0;
        List<String> linkTypes = s.linkTypes().stream().map(LinkTypes::name).toList();
        return new CaptureDto(s.capture().name(), s.opened(), s.packets(), s.bytes(), linkTypes,
                any ? Times.rfc3339(s.firstNanos()) : null, any ? Times.rfc3339(s.lastNanos()) : null,
                s.tcp(), s.icmpErrors(), s.other(), s.truncated(), s.malformed(), s.skippedRecords(), s.skippedBytes(),
                s.weirds(), outcomes(s.outcomes()), outcomes(s.dnsOutcomes()), outcomes(s.udpOutcomes()), s.errors(), s.capture().label(),
                s.clockOffsetNanos() == null ? null : new ClockDto(s.clockReference(), s.clockOffsetNanos(), s.clockMatched()));
    }
}
