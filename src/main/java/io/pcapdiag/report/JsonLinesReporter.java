package io.pcapdiag.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.rules.Pattern;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON Lines ({@code --format jsonl}): one compact object per line for log pipelines, each starting with
 * its {@code event}. {@code finding} lines carry the keys of a finding of {@link JsonReporter}'s document.
 * Offline, each listed finding is a line, final, and the closing {@code report} line carries the rest of
 * the document. Live, a finding line is sent when the finding appears or changes pattern, with its counts
 * as they were then; the closing {@code report} line carries the whole document, final counts included.
 */
public final class JsonLinesReporter implements Reporter {
    /** Between two root values of one generator: the line's end, as {@code println} writes it. */
    private static final SerializedString LINE_END = new SerializedString(System.lineSeparator());
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
        line("finding", head, new FindingFields(f));
        out.flush();
    }

    @Override
    public void summary(LiveStatus p) {
        Map<String, Object> head = head(p.nowNanos());
        head.put("since", Times.utc(p.sinceNanos()));
        head.put("attempts", JsonReporter.outcomes(p.outcomes()));
        Map<String, Long> findings = new LinkedHashMap<>();
        for (Map.Entry<Pattern, Long> e : p.findings().entrySet()) {
            findings.put(e.getKey().id(), e.getValue());
        }
        head.put("findings", findings);
        head.put("interfaces", p.interfaces());
        line("summary", head, null);
        out.flush();
    }

    @Override
    public void report(Report r) {
        JsonReporter.Document doc = JsonReporter.document(r);
        // One generator for the report's lines, each a root value, the line's end between them: not a generator, a
        // flush and a write to standard output for each of a thousand findings (PERFORMANCE.md).
        try (JsonGenerator g = JsonReporter.generatorOn(out)) {
            g.setRootValueSeparator(LINE_END);
            Map<String, Object> head;
            if (r.live() == null) {
                // Offline: no wall-clock time to stamp (the output must not depend on when it ran).
                head = new LinkedHashMap<>();
                if (node != null) {
                    head.put("node", node);
                }
                for (JsonReporter.FindingDto f : doc.findings()) {
                    write(g, "finding", head, new FindingFields(f));
                }
                for (JsonReporter.AttemptDto a : doc.attemptList()) {
                    write(g, "attempt", head, new AttemptFields(a));
                }
            } else {
                head = head(r.live().endNanos());
                head.put("started", Times.utc(r.live().startNanos()));
                head.put("interfaces", r.live().interfaces());
            }
            head.put("findings_listed", doc.findings().size());
            // Offline the findings and attempts went on lines of their own.
            boolean lists = r.live() != null;
            write(g, "report", head, new DocumentFields(doc, lists));
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
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

    /** One line on its own: a generator of its own, closed (flushed) at the line's end. */
    private void line(String event, Map<String, ?> head, Fields body) {
        try {
            try (JsonGenerator g = JsonReporter.generatorOn(out)) {
                write(g, event, head, body);
            }
            out.println();
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code {"event":..., <head>..., <body's properties, snake_case>}} as a root value of {@code g}; body may be null.
     * The generator writes the line as it serialises: no tree of the head or the body is built (PERFORMANCE.md).
     */
    private static void write(JsonGenerator g, String event, Map<String, ?> head, Fields body) throws java.io.IOException {
        g.writeStartObject();
        g.writeStringField("event", event);
        for (Map.Entry<String, ?> e : head.entrySet()) {
            g.writeFieldName(e.getKey());
            value(g, e.getValue());
        }
        if (body != null) {
            body.write(g);
        }
        g.writeEndObject();
    }

    /**
     * A head value as data binding writes it (maps sorted by key): strings, numbers, booleans, maps and lists here,
     * anything else (a record: live mode's interface states) through {@link JsonReporter.Binding#MAPPER}.
     */
    static void value(JsonGenerator g, Object v) throws java.io.IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof String s) {
            g.writeString(s);
        } else if (v instanceof Integer i) {
            g.writeNumber(i);
        } else if (v instanceof Long l) {
            g.writeNumber(l);
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v instanceof Map<?, ?> m) {
            g.writeStartObject();
            for (Map.Entry<?, ?> e : new TreeMap<>(m).entrySet()) {
                g.writeFieldName(String.valueOf(e.getKey()));
                value(g, e.getValue());
            }
            g.writeEndObject();
        } else if (v instanceof List<?> list) {
            g.writeStartArray();
            for (Object o : list) {
                value(g, o);
            }
            g.writeEndArray();
        } else {
            JsonReporter.Binding.MAPPER.writeValue(g, v);
        }
    }

    /**
     * A line's own properties, written into its object. Its three kinds are classes, not lambdas: analyze links none
     * (NoLambdaLinkedTest).
     */
    private interface Fields {
        void write(JsonGenerator g) throws java.io.IOException;
    }

    private record FindingFields(JsonReporter.FindingDto finding) implements Fields {
        @Override
        public void write(JsonGenerator g) throws java.io.IOException {
            JsonWriter.findingFields(g, finding);
        }
    }

    private record AttemptFields(JsonReporter.AttemptDto attempt) implements Fields {
        @Override
        public void write(JsonGenerator g) throws java.io.IOException {
            JsonWriter.attemptFields(g, attempt);
        }
    }

    /** {@code lists}: with the findings and attempts (live), or without (offline: they had lines of their own). */
    private record DocumentFields(JsonReporter.Document doc, boolean lists) implements Fields {
        @Override
        public void write(JsonGenerator g) throws java.io.IOException {
            JsonWriter.documentFields(g, doc, lists);
        }
    }
}
