package io.pcapdiag.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.rules.Pattern;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON Lines ({@code --format jsonl}): one compact object per line for log pipelines, each starting with
 * its {@code event}. {@code finding} lines carry the keys of a finding of {@link JsonReporter}'s document.
 * Offline, each listed finding is a line, final, and the closing {@code report} line carries the rest of
 * the document. Live, a finding line is sent when the finding appears or changes pattern, with its counts
 * as they were then; the closing {@code report} line carries the whole document, final counts included.
 */
public final class JsonLinesReporter implements Reporter {
    private final PrintWriter out;
    private final String node;

    /** @param node the node name (NODE_NAME), added to every line; null outside a cluster */
    public JsonLinesReporter(PrintWriter out, String node) {
        this.out = out;
        this.node = node == null || node.isBlank() ? null : node;
    }

    @Override
    public void finding(Diagnosis d, Pattern previous, long nowNanos) {
        Map<String, Object> head = head(nowNanos);
        if (previous != null) {
            head.put("previous_pattern", previous.id());
        }
        JsonReporter.FindingDto f = JsonReporter.finding(d);
        line("finding", head, g -> JsonWriter.findingFields(g, f));
        out.flush();
    }

    @Override
    public void summary(Progress p) {
        Map<String, Object> head = head(p.nowNanos());
        head.put("since", Times.utc(p.sinceNanos()));
        head.put("attempts", JsonReporter.outcomes(p.outcomes()));
        Map<String, Long> findings = new LinkedHashMap<>();
        p.findings().forEach((pattern, n) -> findings.put(pattern.id(), n));
        head.put("findings", findings);
        head.put("interfaces", p.interfaces());
        line("summary", head, null);
        out.flush();
    }

    @Override
    public void report(Report r) {
        JsonReporter.Document doc = JsonReporter.document(r);
        Map<String, Object> head;
        if (r.live() == null) {
            // Offline: no wall-clock time to stamp (the output must not depend on when it ran).
            head = new LinkedHashMap<>();
            if (node != null) {
                head.put("node", node);
            }
            for (JsonReporter.FindingDto f : doc.findings()) {
                line("finding", head, g -> JsonWriter.findingFields(g, f));
            }
            for (JsonReporter.AttemptDto a : doc.attemptList()) {
                line("attempt", head, g -> JsonWriter.attemptFields(g, a));
            }
        } else {
            head = head(r.live().endNanos());
            head.put("started", Times.utc(r.live().startNanos()));
            head.put("interfaces", r.live().interfaces());
        }
        head.put("findings_listed", doc.findings().size());
        // Offline the findings and attempts went on lines of their own.
        boolean lists = r.live() != null;
        line("report", head, g -> JsonWriter.documentFields(g, doc, lists));
        out.flush();
    }

    private Map<String, Object> head(long nowNanos) {
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("time", Times.utc(nowNanos));
        if (node != null) {
            head.put("node", node);
        }
        return head;
    }

    /**
     * {@code {"event":..., <head>..., <body's properties, snake_case>}}; body may be null. The body is written as it
     * serialises, its braces dropped, after the head's properties (no key is in both): no tree of it is built.
     */
    private void line(String event, Map<String, ?> head, Fields body) {
        ObjectNode n = JsonReporter.MAPPER.createObjectNode();
        n.put("event", event);
        head.forEach((k, v) -> n.set(k, JsonReporter.MAPPER.valueToTree(v)));
        try {
            String h = JsonReporter.MAPPER.writeValueAsString(n);
            if (body == null) {
                out.println(h);
                return;
            }
            java.io.StringWriter b = new java.io.StringWriter();
            try (com.fasterxml.jackson.core.JsonGenerator g = JsonReporter.MAPPER.getFactory().createGenerator(b)) {
                g.writeStartObject();
                body.write(g);
                g.writeEndObject();
            }
            out.print(h.substring(0, h.length() - 1));
            out.print(',');
            out.println(b.getBuffer().substring(1));
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A line's own properties, written into its object. */
    private interface Fields {
        void write(com.fasterxml.jackson.core.JsonGenerator g) throws java.io.IOException;
    }
}
