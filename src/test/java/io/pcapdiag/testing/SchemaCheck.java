package io.pcapdiag.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import io.pcapdiag.report.JsonSchemas;
import io.pcapdiag.report.JsonSchemas.Document;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Validates pcapdiag's JSON against the schemas it ships (networknt's validator, JSON Schema 2020-12, formats
 * asserted). Report and node-facts documents are held to a stricter copy of their schema in which every object takes
 * only the keys it describes ({@code unevaluatedProperties: false}): a key the code writes and the schema does not
 * describe fails the test, though the shipped schema lets consumers meet new keys. JSON Lines are held to the shipped
 * events schema (its lines are the report's objects, held strictly through the report's goldens).
 */
public final class SchemaCheck {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String BASE = "https://pcapdiag.invalid/schema/";
    private static final Map<Document, Schema> SCHEMAS = new EnumMap<>(Document.class);

    static {
        SchemaRegistry strict = registry(Map.of(BASE + "report.json", strict(JsonSchemas.resource(Document.REPORT)),
                BASE + "node-facts.json", strict(JsonSchemas.resource(Document.NODE_FACTS))));
        SchemaRegistry shipped = registry(Map.of(BASE + "report.json", JsonSchemas.resource(Document.REPORT),
                BASE + "events.json", JsonSchemas.resource(Document.EVENTS)));
        SCHEMAS.put(Document.REPORT, strict.getSchema(SchemaLocation.of(BASE + "report.json")));
        SCHEMAS.put(Document.NODE_FACTS, strict.getSchema(SchemaLocation.of(BASE + "node-facts.json")));
        SCHEMAS.put(Document.EVENTS, shipped.getSchema(SchemaLocation.of(BASE + "events.json")));
    }

    private SchemaCheck() {
    }

    private static SchemaRegistry registry(Map<String, String> schemas) {
        SchemaRegistryConfig config = SchemaRegistryConfig.builder().formatAssertionsEnabled(true).build();
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemas(schemas).schemaRegistryConfig(config));
    }

    /** The schema with {@code unevaluatedProperties: false} in every object schema that lists its properties. */
    static String strict(String schema) {
        try {
            JsonNode root = JSON.readTree(schema);
            closeObjects(root);
            return JSON.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void closeObjects(JsonNode n) {
        if (n.isObject() && n.has("properties") && !n.has("additionalProperties") && !n.has("unevaluatedProperties")) {
            ((ObjectNode) n).put("unevaluatedProperties", false);
        }
        n.forEach(SchemaCheck::closeObjects);
    }

    /** What is wrong with {@code json} as a {@code d}, one message per error (instance path and message); empty if valid. */
    public static List<String> errors(Document d, String json) {
        try {
            return errors(d, JSON.readTree(json));
        } catch (IOException e) {
            return List.of("not JSON: " + e.getMessage());
        }
    }

    public static List<String> errors(Document d, JsonNode json) {
        return SCHEMAS.get(d).validate(json).stream().map(e -> e.getInstanceLocation() + ": " + e.getMessage()).toList();
    }

    /** The errors of each line of JSON Lines output, prefixed with the line's number. */
    public static List<String> lineErrors(String jsonLines) {
        String[] lines = jsonLines.split("\n");
        return java.util.stream.IntStream.range(0, lines.length).boxed()
                .flatMap(i -> errors(Document.EVENTS, lines[i]).stream().map(e -> "line " + (i + 1) + ": " + e))
                .toList();
    }
}
