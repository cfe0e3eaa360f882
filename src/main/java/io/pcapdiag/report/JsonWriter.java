package io.pcapdiag.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.pcapdiag.report.JsonReporter.AttemptDto;
import io.pcapdiag.report.JsonReporter.CaptureDto;
import io.pcapdiag.report.JsonReporter.CauseDto;
import io.pcapdiag.report.JsonReporter.Document;
import io.pcapdiag.report.JsonReporter.EvidenceDto;
import io.pcapdiag.report.JsonReporter.ExplanationDto;
import io.pcapdiag.report.JsonReporter.FactDto;
import io.pcapdiag.report.JsonReporter.FindingDto;
import io.pcapdiag.report.JsonReporter.HopDto;
import io.pcapdiag.report.JsonReporter.RefDto;
import io.pcapdiag.report.JsonReporter.RemedyDto;
import io.pcapdiag.report.JsonReporter.StatementDto;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON report written field by field through Jackson's streaming generator: what data binding writes for the DTO
 * records under {@link JsonReporter.Binding#MAPPER} (snake_case, component order, maps sorted by key, nulls written), without
 * binding's introspection of some twenty record types on every run. JsonWriterTest holds it to binding's output, the
 * goldens to the bytes. On node-1x (1,000 findings listed) --format json went from 0.72 to 0.65 s, jsonl from 0.91 to
 * 0.68 s (with its report line no longer built as a tree of every finding).
 */
final class JsonWriter {
    private JsonWriter() {
    }

    /** The whole document; {@code lists} false leaves out findings and attempt_list (jsonl writes them on their own lines). */
    static void document(JsonGenerator g, Document d, boolean lists) throws IOException {
        g.writeStartObject();
        documentFields(g, d, lists);
        g.writeEndObject();
    }

    static void documentFields(JsonGenerator g, Document d, boolean lists) throws IOException {
        g.writeNumberField("schema", d.schema());
        if (lists) {
            g.writeArrayFieldStart("findings");
            for (FindingDto f : d.findings()) {
                finding(g, f);
            }
            g.writeEndArray();
        }
        map(g, "findings_not_listed", d.findingsNotListed());
        map(g, "attempts", d.attempts());
        g.writeObjectFieldStart("tracker");
        g.writeNumberField("attempts", d.tracker().attempts());
        g.writeNumberField("evicted", d.tracker().evicted());
        g.writeNumberField("peak_open", d.tracker().peakOpen());
        g.writeNumberField("max_open", d.tracker().maxOpen());
        g.writeNumberField("unmatched_answers", d.tracker().unmatchedAnswers());
        g.writeEndObject();
        g.writeArrayFieldStart("captures");
        for (CaptureDto c : d.captures()) {
            capture(g, c);
        }
        g.writeEndArray();
        if (lists) {
            g.writeArrayFieldStart("attempt_list");
            for (AttemptDto a : d.attemptList()) {
                attempt(g, a);
            }
            g.writeEndArray();
        }
        g.writeNumberField("attempts_not_listed", d.attemptsNotListed());
    }

    static void finding(JsonGenerator g, FindingDto f) throws IOException {
        g.writeStartObject();
        findingFields(g, f);
        g.writeEndObject();
    }

    static void findingFields(JsonGenerator g, FindingDto f) throws IOException {
        g.writeStringField("pattern", f.pattern());
        g.writeStringField("severity", f.severity());
        g.writeStringField("title", f.title());
        g.writeStringField("client", f.client());
        g.writeStringField("target", f.target());
        g.writeStringField("responder", f.responder());
        g.writeNumberField("attempts", f.attempts());
        ref(g, "client_ref", f.clientRef());
        ref(g, "target_ref", f.targetRef());
        ref(g, "responder_ref", f.responderRef());
        g.writeArrayFieldStart("causes");
        for (CauseDto c : f.causes()) {
            g.writeStartObject();
            g.writeStringField("id", c.id());
            g.writeStringField("title", c.title());
            g.writeStringField("verdict", c.verdict());
            g.writeArrayFieldStart("facts");
            for (FactDto x : c.facts()) {
                g.writeStartObject();
                g.writeStringField("source", x.source());
                g.writeStringField("text", x.text());
                g.writeEndObject();
            }
            g.writeEndArray();
            strings(g, "fix", c.fix());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeNumberField("retransmissions", f.retransmissions());
        g.writeNumberField("client_resets", f.clientResets());
        g.writeNumberField("distinct_client_ports", f.distinctClientPorts());
        g.writeStringField("first_attempt", f.firstAttempt());
        g.writeStringField("last_attempt", f.lastAttempt());
        g.writeArrayFieldStart("evidence");
        for (EvidenceDto e : f.evidence()) {
            g.writeStartObject();
            g.writeStringField("role", e.role());
            g.writeStringField("capture", e.capture());
            g.writeNumberField("frame", e.frame());
            g.writeStringField("time", e.time());
            g.writeStringField("iface", e.iface());
            g.writeStringField("summary", e.summary());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeStringField("display_filter", f.displayFilter());
        if (f.displayFilterDecodeAs() != null) {
            g.writeStringField("display_filter_decode_as", f.displayFilterDecodeAs());
        }
        hops(g, "path", f.path());
        g.writeFieldName("last_seen");
        hop(g, f.lastSeen());
        g.writeStringField("vanished_between", f.vanishedBetween());
        g.writeFieldName("explanation");
        explanation(g, f.explanation());
    }

    private static void explanation(JsonGenerator g, ExplanationDto x) throws IOException {
        g.writeStartObject();
        g.writeStringField("happened", x.happened());
        g.writeArrayFieldStart("statements");
        for (StatementDto s : x.statements()) {
            g.writeStartObject();
            g.writeStringField("kind", s.kind());
            g.writeStringField("text", s.text());
            g.writeStringField("basis", s.basis());
            strings(g, "packets", s.packets());
            g.writeEndObject();
        }
        g.writeEndArray();
        strings(g, "observations", x.observations());
        strings(g, "checks", x.checks());
        g.writeArrayFieldStart("remedies");
        for (RemedyDto r : x.remedies()) {
            g.writeStartObject();
            g.writeStringField("fix", r.fix());
            g.writeStringField("tradeoff", r.tradeoff());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    static void attempt(JsonGenerator g, AttemptDto a) throws IOException {
        g.writeStartObject();
        attemptFields(g, a);
        g.writeEndObject();
    }

    static void attemptFields(JsonGenerator g, AttemptDto a) throws IOException {
        g.writeStringField("client", a.client());
        g.writeNumberField("client_port", a.clientPort());
        g.writeNumberField("isn", a.isn());
        g.writeStringField("target", a.target());
        g.writeStringField("outcome", a.outcome());
        g.writeStringField("pattern", a.pattern());
        g.writeStringField("responder", a.responder());
        g.writeNumberField("retransmissions", a.retransmissions());
        g.writeFieldName("connect_ms");
        if (a.connectMs() == null) {
            g.writeNull();
        } else {
            g.writeNumber(a.connectMs().doubleValue());
        }
        g.writeStringField("first_syn", a.firstSyn());
        hops(g, "path", a.path());
    }

    private static void capture(JsonGenerator g, CaptureDto c) throws IOException {
        g.writeStartObject();
        g.writeStringField("file", c.file());
        g.writeBooleanField("analysed", c.analysed());
        g.writeNumberField("packets", c.packets());
        g.writeNumberField("bytes", c.bytes());
        strings(g, "link_types", c.linkTypes());
        g.writeStringField("first_packet", c.firstPacket());
        g.writeStringField("last_packet", c.lastPacket());
        g.writeNumberField("tcp", c.tcp());
        g.writeNumberField("icmp_errors", c.icmpErrors());
        g.writeNumberField("other", c.other());
        g.writeNumberField("truncated", c.truncated());
        g.writeNumberField("malformed", c.malformed());
        g.writeNumberField("skipped_records", c.skippedRecords());
        g.writeNumberField("skipped_bytes", c.skippedBytes());
        map(g, "anomalies", c.anomalies());
        map(g, "attempts", c.attempts());
        strings(g, "errors", c.errors());
        g.writeStringField("label", c.label());
        g.writeFieldName("clock");
        if (c.clock() == null) {
            g.writeNull();
        } else {
            g.writeStartObject();
            g.writeStringField("reference", c.clock().reference());
            g.writeNumberField("offset_nanos", c.clock().offsetNanos());
            g.writeNumberField("shared_attempts", c.clock().sharedAttempts());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void hops(JsonGenerator g, String name, List<HopDto> hops) throws IOException {
        g.writeArrayFieldStart(name);
        for (HopDto h : hops) {
            hop(g, h);
        }
        g.writeEndArray();
    }

    private static void hop(JsonGenerator g, HopDto h) throws IOException {
        if (h == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("capture", h.capture());
        g.writeNumberField("frame", h.frame());
        g.writeStringField("time", h.time());
        g.writeStringField("node", h.node());
        g.writeStringField("interface", h.iface());
        g.writeStringField("direction", h.direction());
        g.writeStringField("destination", h.destination());
        g.writeBooleanField("after_dnat", h.afterDnat());
        g.writeStringField("tunnel", h.tunnel());
        g.writeEndObject();
    }

    private static void ref(JsonGenerator g, String name, RefDto r) throws IOException {
        g.writeFieldName(name);
        if (r == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("kind", r.kind());
        g.writeStringField("namespace", r.namespace());
        g.writeStringField("name", r.name());
        g.writeStringField("port", r.port());
        g.writeStringField("node", r.node());
        g.writeEndObject();
    }

    private static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        g.writeFieldName(name);
        if (values == null) {
            g.writeNull();
            return;
        }
        g.writeStartArray();
        for (String s : values) {
            g.writeString(s);
        }
        g.writeEndArray();
    }

    /** A map as binding writes it under ORDER_MAP_ENTRIES_BY_KEYS: sorted by key. */
    private static void map(JsonGenerator g, String name, Map<String, Long> m) throws IOException {
        g.writeFieldName(name);
        if (m == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        for (Map.Entry<String, Long> e : new TreeMap<>(m).entrySet()) {
            g.writeFieldName(e.getKey());
            if (e.getValue() == null) {
                g.writeNull();
            } else {
                g.writeNumber(e.getValue().longValue());
            }
        }
        g.writeEndObject();
    }
}
