package io.pcapdiag.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.pcapdiag.analysis.CaptureSummary;
import io.pcapdiag.analysis.Result;
import io.pcapdiag.decode.LinkTypes;
import io.pcapdiag.rules.Explain;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.track.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code --format json}: the contract of DESIGN.md, with per-capture statistics. Its own snake_case DTOs. */
public final class JsonReport {
    /** Findings listed in full unless --max-findings says otherwise; the rest are counted in findings_not_listed. */
    public static final int DEFAULT_MAX_FINDINGS = 1000;
    /** Bumped when a key changes meaning or disappears; new keys do not bump it. */
    public static final int SCHEMA = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    /**
     * The document. {@code findings_not_listed}: per pattern, attempts in findings beyond --max-findings or
     * beyond the bound on distinct findings; {@code findings} plus these account for every attempt.
     */
    record Document(int schema, List<FindingDto> findings, Map<String, Long> findingsNotListed,
                    Map<String, Long> attempts, TrackerDto tracker, List<CaptureDto> captures) {
    }

    record FindingDto(String pattern, String severity, String title, String client, String target, String responder,
                      long attempts, long retransmissions, long clientResets, int distinctClientPorts, String firstSeen,
                      String lastSeen, List<Evidence.Packet> evidence, ExplanationDto explanation) {
    }

    record ExplanationDto(String happened, List<String> observations, List<Explanation.Remedy> remedies) {
    }

    record TrackerDto(long attempts, long evicted, long peakOpen, int maxOpen, long unmatchedAnswers) {
    }

    record CaptureDto(String file, boolean analysed, long packets, long bytes, List<String> linkTypes, String firstPacket,
                      String lastPacket, long tcp, long icmpErrors, long other, long truncated, long malformed,
                      long skippedRecords, long skippedBytes, Map<String, Long> anomalies, Map<String, Long> attempts,
                      List<String> errors) {
    }

    private final int maxFindings;

    public JsonReport(int maxFindings) {
        this.maxFindings = maxFindings;
    }

    public void write(Result r, Writer out) {
        Document doc = document(r);
        try {
            MAPPER.writeValue(new NonClosing(out), doc);
            out.write(System.lineSeparator());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The document {@link #write} prints; {@link JsonLines} prints the same on one line. */
    Document document(Result r) {
        List<FindingDto> findings = new ArrayList<>();
        Map<String, Long> notListed = new LinkedHashMap<>();
        for (Pattern p : Pattern.values()) {
            notListed.put(p.id(), 0L);
        }
        r.overflow().forEach((p, n) -> notListed.merge(p.id(), n, Long::sum));
        for (int i = 0; i < r.findings().size(); i++) {
            Finding f = r.findings().get(i);
            if (i < maxFindings) {
                findings.add(finding(f));
            } else {
                notListed.merge(f.pattern().id(), f.attempts(), Long::sum);
            }
        }
        Result.TrackerStats t = r.tracker();
        return new Document(SCHEMA, findings, notListed, outcomes(r.outcomes()),
                new TrackerDto(t.attempts(), t.evicted(), t.peakOpen(), t.maxOpen(), t.unmatchedAnswers()),
                r.captures().stream().map(JsonReport::capture).toList());
    }

    /** One finding as the document lists it; {@link JsonLines} streams the same object. */
    static FindingDto finding(Finding f) {
        Explanation x = Explain.of(f);
        return new FindingDto(f.pattern().id(), f.severity().id(), f.pattern().title(), f.client().toString(),
                f.target().toString(), f.responder() == null ? null : f.responder().toString(), f.attempts(),
                f.retransmissions(), f.clientResets(), f.distinctClientPorts(), Evidence.time(f.firstNanos()),
                Evidence.time(f.lastNanos()), Evidence.of(f),
                new ExplanationDto(x.happened(), x.observations(), x.remedies()));
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
        return new CaptureDto(s.capture().name(), s.opened(), s.packets(), s.bytes(),
                s.linkTypes().stream().map(LinkTypes::name).toList(),
                any ? Evidence.time(s.firstNanos()) : null, any ? Evidence.time(s.lastNanos()) : null,
                s.tcp(), s.icmpErrors(), s.other(), s.truncated(), s.malformed(), s.skippedRecords(), s.skippedBytes(),
                s.weirds(), outcomes(s.outcomes()), s.errors());
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
