package io.pcapdiag.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.analysis.Result;
import io.pcapdiag.rules.Finding;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * JSON Lines ({@code --format jsonl}, live mode): one compact JSON object per line for log pipelines. Each
 * line starts with its {@code event} ({@code finding}, {@code summary}, {@code report}, ...) and the caller's
 * extra keys; a finding line carries the same keys as a finding of {@link JsonReport}'s document, and the
 * {@code report} line the whole document.
 */
public final class JsonLines {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setSerializationInclusion(JsonInclude.Include.ALWAYS)
            .disable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private JsonLines() {
    }

    /** {@code {"event":..., <head>..., <the finding as JsonReport lists it>}}. */
    public static String finding(String event, Map<String, ?> head, Finding f) {
        return line(event, head, JsonReport.finding(f));
    }

    /** {@code {"event":..., <head>..., <JsonReport's whole document>}}. */
    public static String report(String event, Map<String, ?> head, Result r, int maxFindings) {
        return line(event, head, new JsonReport(maxFindings).document(r));
    }

    /** {@code {"event":..., <head>..., <body's properties, snake_case>}}; body may be null. */
    public static String line(String event, Map<String, ?> head, Object body) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("event", event);
        head.forEach((k, v) -> n.set(k, MAPPER.valueToTree(v)));
        if (body != null) {
            n.setAll((ObjectNode) MAPPER.valueToTree(body));
        }
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
