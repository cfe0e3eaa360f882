package io.pcapdiag.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The JSON Schemas (2020-12) of pcapdiag's JSON, one copy each on the class path ({@code io/pcapdiag/schema/}):
 * {@code pcapdiag schema} prints them, the tests validate every golden and fuzzed output against them, docs/ points at
 * them. The JSON Lines schema refers to the report's definitions (a line carries a finding, an attempt, a capture of
 * the report); printed, it carries the report schema inside it (a compound schema document, 2020-12 section 9.3), so
 * that a validator needs nothing else.
 */
public final class JsonSchemas {
    /** The documents that have a schema, by the name {@code pcapdiag schema} takes. */
    public enum Document {
        REPORT("report"), EVENTS("events"), NODE_FACTS("node-facts");

        private final String id;

        Document(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        /** {@code io/pcapdiag/schema/report.schema.json}: where its schema is on the class path. */
        public String resource() {
            return "io/pcapdiag/schema/" + id + ".schema.json";
        }

        /** The document named {@code id}, or null. */
        public static Document of(String id) {
            return Arrays.stream(values()).filter(d -> d.id.equals(id)).findFirst().orElse(null);
        }

        public static List<String> ids() {
            return Arrays.stream(values()).map(Document::id).toList();
        }
    }

    private JsonSchemas() {
    }

    /** The schema's text as shipped. */
    public static String resource(Document d) {
        try (InputStream in = JsonSchemas.class.getClassLoader().getResourceAsStream(d.resource())) {
            if (in == null) {
                throw new IllegalStateException(d.resource() + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema as {@code pcapdiag schema} prints it: standing alone (events with the report's schema inside). */
    public static String standalone(Document d) {
        if (d != Document.EVENTS) {
            return resource(d);
        }
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        try {
            ObjectNode events = (ObjectNode) json.readTree(resource(Document.EVENTS));
            // Found by its $id, which the events schema's references name; the key only has to be free.
            ((ObjectNode) events.get("$defs")).set("report.json", json.readTree(resource(Document.REPORT)));
            return json.writeValueAsString(events) + "\n";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
