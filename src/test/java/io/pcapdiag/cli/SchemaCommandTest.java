package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.pcapdiag.report.JsonSchemas;
import io.pcapdiag.testing.SchemaCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code pcapdiag schema} prints the shipped schemas; every field of them is described; the printed events schema
 * stands alone (a validator that knows nothing else validates lines with it); every node-facts document of captures/
 * validates against the node-facts schema.
 */
class SchemaCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @EnumSource(JsonSchemas.Document.class)
    void printsTheSchema(JsonSchemas.Document d) throws IOException {
        CliRun r = CliRun.of("schema", d.id());
        assertEquals("", r.err());
        assertEquals(ExitCodes.OK, r.code());
        JsonNode printed = JSON.readTree(r.out());
        assertEquals("https://json-schema.org/draft/2020-12/schema", printed.get("$schema").asText());
        if (d != JsonSchemas.Document.EVENTS) {
            assertEquals(JsonSchemas.resource(d), r.out(), "printed as shipped");
        }
    }

    @Test
    void anUnknownDocumentIsAUsageError() {
        CliRun r = CliRun.of("schema", "findings");
        assertEquals(ExitCodes.USAGE, r.code());
        assertEquals("pcapdiag: schema takes report, events or node-facts, not 'findings'\n", r.err());
    }

    /** Every property of every object the schemas describe says what it is. */
    @ParameterizedTest
    @EnumSource(JsonSchemas.Document.class)
    void everyFieldIsDescribed(JsonSchemas.Document d) throws IOException {
        List<String> bare = new ArrayList<>();
        undescribed(JSON.readTree(JsonSchemas.resource(d)), "#", bare);
        assertEquals(List.of(), bare);
    }

    private static void undescribed(JsonNode n, String at, List<String> bare) {
        if (n.isObject()) {
            JsonNode props = n.get("properties");
            if (props != null) {
                props.fields().forEachRemaining(e -> {
                    if (!e.getValue().has("description")) {
                        bare.add(at + "/properties/" + e.getKey());
                    }
                });
            }
            n.fields().forEachRemaining(e -> undescribed(e.getValue(), at + "/" + e.getKey(), bare));
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                undescribed(n.get(i), at + "/" + i, bare);
            }
        }
    }

    /** The printed events schema carries the report's within it: nothing else is needed to validate a line. */
    @Test
    void thePrintedEventsSchemaStandsAlone() throws IOException {
        String schema = CliRun.of("schema", "events").out();
        var validator = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(schema);
        CliRun r = CliRun.of("analyze", "--format", "jsonl", "--attempts", "5", "captures/hairpin-no-brnf/any.pcap");
        for (String line : r.out().split(System.lineSeparator())) {
            assertEquals(List.of(), validator.validate(JSON.readTree(line)), line);
        }
        JsonNode wrong = JSON.readTree("{\"event\":\"finding\",\"schema_version\":2,\"final\":true,\"path_not_listed\":0}");
        assertTrue(!validator.validate(wrong).isEmpty(), "a finding line without the finding's keys is invalid");
    }

    static List<Path> nodeFacts() throws IOException {
        try (Stream<Path> s = Files.walk(Captures.dir())) {
            return s.filter(p -> p.getFileName().toString().matches("(node-facts|node-b-facts)\\.json")).sorted().toList();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodeFacts")
    void nodeFactsValidateAgainstTheSchema(Path file) throws IOException {
        assertEquals(List.of(), SchemaCheck.errors(JsonSchemas.Document.NODE_FACTS, Files.readString(file)), file.toString());
    }

    /** The tests' copy of the schema refuses a key it does not describe, deep in a finding: none goes undescribed. */
    @Test
    void theTestsCheckRefusesAnUndescribedKey() throws IOException {
        JsonNode golden = JSON.readTree(Files.readString(Captures.golden("hairpin-no-brnf/any.pcap", "json")));
        assertEquals(List.of(), SchemaCheck.errors(JsonSchemas.Document.REPORT, golden));
        ((ObjectNode) golden.at("/findings/0/evidence/0")).put("iface", "veth-a P");
        List<String> errors = SchemaCheck.errors(JsonSchemas.Document.REPORT, golden);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).startsWith("/findings/0/evidence/0: property 'iface'"), errors.get(0));
    }

    /** What node-facts writes on this machine, whatever it could read here, is a document the schema describes. */
    @Test
    void nodeFactsWrittenHereValidate() {
        CliRun r = CliRun.of("node-facts", "--node", "schema-test");
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertEquals(List.of(), SchemaCheck.errors(JsonSchemas.Document.NODE_FACTS, r.out()), r.out());
    }

    /** The schema's version names the documents': one name, schema_version, and the report's number. */
    @Test
    void theSchemaVersionIsTheReportsOwn() throws IOException {
        JsonNode report = JSON.readTree(JsonSchemas.resource(JsonSchemas.Document.REPORT));
        assertEquals(io.pcapdiag.report.JsonReporter.SCHEMA_VERSION,
                report.at("/$defs/schema_version/const").asInt());
        assertTrue(JSON.readTree(JsonSchemas.resource(JsonSchemas.Document.NODE_FACTS)).at("/properties").has("schema_version"));
    }
}
