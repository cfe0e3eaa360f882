package io.pcapdiag.cli;

import static io.pcapdiag.testing.PacketScript.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.report.JsonLinesReporter;
import io.pcapdiag.report.JsonReporter;
import io.pcapdiag.testing.PacketScript;
import io.pcapdiag.testing.SchemaCheck;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Offline {@code --format jsonl} carries what {@code --format json} does, a line at a time: each line one object of its
 * own, valid against the shipped events schema and well under the 16 KiB at which container runtimes split a log line;
 * every listed finding a {@code finding} line with the document's keys, every listed attempt an {@code attempt} line,
 * every capture a {@code capture} line, and a last {@code report} line with the rest of the document,
 * {@code findings_listed} and {@code captures_listed}. Over every capture of captures/, with its snapshot and node
 * facts, and an attempt list; and over inputs that make the largest lines (one SYN in many captures, a SYN flood).
 */
class JsonLinesTest {
    /** Anything after a line's object is an error: one object per line. */
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    /** Half of the 16 KiB at which docker's json-file and CRI logs split a line: well under it. */
    private static final int MAX_LINE_BYTES = 8 * 1024;

    @TempDir
    Path dir;

    static List<String> captures() throws IOException {
        return Captures.names();
    }

    private static CliRun run(String format, List<String> args) {
        List<String> a = new ArrayList<>(List.of("analyze", "--format", format));
        a.addAll(args);
        CliRun r = CliRun.of(a.toArray(String[]::new));
        assertEquals("", r.err(), "stderr");
        assertEquals(ExitCodes.OK, r.code());
        return r;
    }

    private static List<String> args(String name) throws IOException {
        List<String> a = new ArrayList<>(List.of("--attempts", "20"));
        a.addAll(Captures.options(name));
        a.add(Captures.arg(name));
        return a;
    }

    /** The lines, each checked: one object, valid against the events schema, at most {@link #MAX_LINE_BYTES}. */
    private static List<JsonNode> lines(String out) throws IOException {
        assertTrue(out.endsWith(System.lineSeparator()), "the last line ends");
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.split(System.lineSeparator())) {
            assertFalse(line.isBlank(), "an empty line");
            int bytes = line.getBytes(StandardCharsets.UTF_8).length;
            assertTrue(bytes <= MAX_LINE_BYTES, bytes + " bytes: " + line.substring(0, Math.min(200, line.length())));
            JsonNode n = JSON.readTree(line);
            assertTrue(n.isObject(), line);
            assertEquals(List.of(), SchemaCheck.errors(io.pcapdiag.report.JsonSchemas.Document.EVENTS, n), line);
            lines.add(n);
        }
        return lines;
    }

    /** A line's object without the keys of the line itself: what the document has in that place. */
    private static ObjectNode body(JsonNode line, String event) {
        assertEquals(event, line.get("event").asText(), line.toString());
        assertEquals(2, line.get("schema_version").asInt(), line.toString());
        ObjectNode o = line.deepCopy();
        o.remove(List.of("event", "schema_version"));
        if (event.equals("finding")) {
            assertTrue(o.remove("final").asBoolean(), "offline, every finding line is final");
            assertEquals(0, o.remove("path_not_listed").asInt());
        }
        return o;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void everyLineIsAnObjectAndTheLinesCarryTheDocument(String name) throws IOException {
        JsonNode doc = JSON.readTree(run("json", args(name)).out());
        List<JsonNode> lines = lines(run("jsonl", args(name)).out());
        ArrayNode findings = (ArrayNode) doc.get("findings");
        ArrayNode attempts = (ArrayNode) doc.get("attempt_list");
        ArrayNode captures = (ArrayNode) doc.get("captures");
        assertEquals(findings.size() + attempts.size() + captures.size() + 1, lines.size());
        int i = 0;
        for (JsonNode f : findings) {
            assertEquals(f, body(lines.get(i++), "finding"));
        }
        for (JsonNode a : attempts) {
            assertEquals(a, body(lines.get(i++), "attempt"));
        }
        for (JsonNode c : captures) {
            assertEquals(c, body(lines.get(i++), "capture"));
        }
        ObjectNode rest = doc.deepCopy();
        rest.remove(List.of("findings", "attempt_list", "captures"));
        rest.put("findings_listed", findings.size());
        rest.put("captures_listed", captures.size());
        ObjectNode report = lines.get(i).deepCopy();
        assertEquals("report", report.remove("event").asText());
        assertEquals(rest, report);
    }

    /**
     * One SYN seen in 60 captures has a path of dozens of places: the document lists them all (the one finding longer
     * than a line may be), its line the first eight and how many more there were.
     */
    @Test
    void aFindingSeenInManyCapturesStaysWithinTheLineBound() throws IOException {
        Path pcapng = Captures.dir().resolve("hairpin-no-brnf-v6/multi.pcapng");
        List<String> args = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            Path copy = dir.resolve(String.format(Locale.ROOT, "%02d-multi.pcapng", i));
            Files.copy(pcapng, copy);
            args.add(copy.toString());
        }
        JsonNode doc = JSON.readTree(run("json", args).out());
        JsonNode widest = doc.get("findings").get(0);
        assertTrue(JSON.writeValueAsBytes(widest).length > MAX_LINE_BYTES, "the test's input makes a finding longer than a line");
        List<JsonNode> lines = lines(run("jsonl", args).out());
        JsonNode line = lines.get(0);
        assertEquals(8, line.get("path").size());
        assertEquals(widest.get("path").size() - 8, line.get("path_not_listed").asInt());
        assertEquals(widest.get("path").get(7), line.get("path").get(7));
    }

    /**
     * A SYN flood, as the bench's syn-flood trace is (distinct sources, never answered), each SYN retransmitted once so
     * that it is judged: a thousand findings listed, each its own line, and a closing line that repeats none of them.
     */
    @Test
    void aSynFloodKeepsEveryLineWithinTheBound() throws IOException {
        PacketScript s = new PacketScript();
        for (int i = 0; i < 3000; i++) {
            String client = "10.244." + (i >> 8) + "." + (i & 0xff);
            s.syn(i * MS, client, 40000, "10.96.0.10", 80, 1000 + i);
            s.syn(i * MS + 1000 * MS, client, 40000, "10.96.0.10", 80, 1000 + i);
        }
        StringWriter out = new StringWriter();
        new JsonLinesReporter(new PrintWriter(out), "node-1").report(Report.of(s.finish(), JsonReporter.DEFAULT_MAX_FINDINGS, null));
        List<JsonNode> lines = lines(out.toString());
        JsonNode report = lines.get(lines.size() - 1);
        assertEquals("report", report.get("event").asText());
        assertFalse(report.has("findings"), "the closing line summarises");
        assertEquals(JsonReporter.DEFAULT_MAX_FINDINGS, report.get("findings_listed").asInt());
        assertEquals(JsonReporter.DEFAULT_MAX_FINDINGS, lines.stream().filter(l -> l.get("event").asText().equals("finding")).count());
        assertEquals(2000, report.get("findings_not_listed").get("no-response").asInt());
    }
}
