package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Offline {@code --format jsonl} carries what {@code --format json} does, a line at a time: each line one object of its
 * own, every listed finding a {@code finding} line with the document's keys, every listed attempt an {@code attempt}
 * line, and a last {@code report} line with the rest of the document and {@code findings_listed}. Over every capture of
 * captures/, with its snapshot and node facts, and an attempt list.
 */
class JsonLinesTest {
    /** Anything after a line's object is an error: one object per line. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    static List<String> captures() throws IOException {
        return Captures.names();
    }

    private static CliRun run(String name, String format) throws IOException {
        List<String> a = new ArrayList<>(List.of("analyze", "--format", format, "--attempts", "20"));
        a.addAll(Captures.options(name));
        a.add(Captures.arg(name));
        CliRun r = CliRun.of(a.toArray(String[]::new));
        assertEquals("", r.err(), "stderr");
        assertEquals(ExitCodes.OK, r.code());
        return r;
    }

    /** A line's object without its event: what the document has in that place. */
    private static ObjectNode body(JsonNode line, String event) {
        assertEquals(event, line.get("event").asText(), line.toString());
        ObjectNode o = line.deepCopy();
        o.remove("event");
        return o;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void everyLineIsAnObjectAndTheLinesCarryTheDocument(String name) throws IOException {
        JsonNode doc = JSON.readTree(run(name, "json").out());
        String out = run(name, "jsonl").out();
        assertTrue(out.endsWith(System.lineSeparator()), "the last line ends");
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.split(System.lineSeparator())) {
            assertFalse(line.isBlank(), "an empty line");
            JsonNode n = JSON.readTree(line);
            assertTrue(n.isObject(), line);
            lines.add(n);
        }
        ArrayNode findings = (ArrayNode) doc.get("findings");
        ArrayNode attempts = (ArrayNode) doc.get("attempt_list");
        assertEquals(findings.size() + attempts.size() + 1, lines.size(), out);
        for (int i = 0; i < findings.size(); i++) {
            assertEquals(findings.get(i), body(lines.get(i), "finding"));
        }
        for (int i = 0; i < attempts.size(); i++) {
            assertEquals(attempts.get(i), body(lines.get(findings.size() + i), "attempt"));
        }
        ObjectNode rest = doc.deepCopy();
        rest.remove("findings");
        rest.remove("attempt_list");
        rest.put("findings_listed", findings.size());
        ObjectNode report = body(lines.get(lines.size() - 1), "report");
        assertEquals(rest, report);
    }
}
