package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The context mutation campaign as a test: a value of a cluster snapshot or of a node-facts document (every scenario's
 * under captures/, and the fixtures under src/test/resources) replaced by a value of another type, an address that is
 * none, null, a huge string, or deleted, and the capture analysed with it. Every run ends with a report that is valid
 * JSON and exit 0 or 1; the one exception is a node-facts document whose identity ({@code schema_version},
 * {@code collected_at}) is gone, which is no node-facts document: exit 2 and one line naming that path. The fast test
 * samples the changes; the slow one makes every change to every value of a snapshot and of a node-facts document.
 */
class ContextMutationTest {
    private static final Path PROJECT = CliRun.projectDir();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String HUGE = "x".repeat(200_000);

    /** A context document, the capture it is analysed with, and whether it is node facts (else a snapshot). */
    private record Document(Path file, Path capture, boolean facts) {
    }

    /** One change: the value at a JSON pointer replaced (or deleted: null replacement). */
    private record Change(Document doc, JsonPointer at, String how) {
    }

    private static List<Document> documents() throws IOException {
        List<Document> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(PROJECT.resolve("captures"))) {
            for (Path scenario : s.filter(Files::isDirectory).sorted().toList()) {
                Path capture = scenario.resolve("any.pcap");
                if (!Files.exists(capture)) {
                    continue;
                }
                for (String name : List.of("cluster.json", "node-facts.json")) {
                    if (Files.exists(scenario.resolve(name))) {
                        out.add(new Document(scenario.resolve(name), capture, name.startsWith("node")));
                    }
                }
            }
        }
        Path policy = PROJECT.resolve("captures/policy-reject/any.pcap");
        out.add(new Document(PROJECT.resolve("src/test/resources/io/pcapdiag/cluster/full-objects.json"), policy, false));
        out.add(new Document(PROJECT.resolve("src/test/resources/io/pcapdiag/node/node-a.json"), policy, true));
        return out;
    }

    private static final List<String> HOW = List.of("wrong type", "bad address", "null", "huge string", "deleted");

    /** What replaces a value: of another type than it is, an address that is none, null, a huge string; null: delete it. */
    private static JsonNode replacement(JsonNode old, String how) {
        return switch (how) {
            case "wrong type" -> old.isTextual() ? F.numberNode(7) : old.isNumber() || old.isBoolean() ? F.textNode("x")
                    : old.isArray() ? F.objectNode() : old.isObject() ? F.arrayNode() : F.booleanNode(true);
            case "bad address" -> F.textNode(old.isNumber() ? "-1" : "999.1.1.1");
            case "null" -> F.nullNode();
            case "huge string" -> F.textNode(HUGE);
            default -> null;
        };
    }

    /** Every value's place in a document, the root left out. */
    private static void places(JsonNode n, JsonPointer at, List<JsonPointer> out) {
        if (n instanceof ObjectNode o) {
            o.fieldNames().forEachRemaining(name -> {
                JsonPointer p = at.appendProperty(name);
                out.add(p);
                places(o.get(name), p, out);
            });
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonPointer p = at.appendIndex(i);
                out.add(p);
                places(a.get(i), p, out);
            }
        }
    }

    /** Runs one change; returns what was wrong with the run, or null. */
    private static String run(Change c, Path dir) throws IOException {
        JsonNode doc = JSON.readTree(c.doc().file().toFile());
        JsonNode parent = doc.at(c.at().head());
        String last = c.at().last().getMatchingProperty();
        JsonNode old = parent instanceof ArrayNode a ? a.get(c.at().last().getMatchingIndex()) : parent.get(last);
        JsonNode value = replacement(old, c.how());
        if (parent instanceof ArrayNode a) {
            if (value == null) {
                a.remove(c.at().last().getMatchingIndex());
            } else {
                a.set(c.at().last().getMatchingIndex(), value);
            }
        } else if (value == null) {
            ((ObjectNode) parent).remove(last);
        } else {
            ((ObjectNode) parent).set(last, value);
        }
        Path f = dir.resolve(c.doc().facts() ? "facts.json" : "cluster.json");
        JSON.writeValue(f.toFile(), doc);
        List<String> args = new ArrayList<>(List.of("analyze", "--format", "json"));
        args.addAll(List.of(c.doc().facts() ? "--node-facts" : "--cluster", f.toString(), c.doc().capture().toString()));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        String what = c.doc().file() + " " + c.at() + " " + c.how() + ": exit " + r.code() + ": "
                + r.err().lines().findFirst().orElse("");
        if (r.err().contains("\tat ") || r.err().contains("Exception") || r.err().contains("Error:")) {
            return what + " (a stack trace or an exception's name)";
        }
        if (r.code() == ExitCodes.USAGE && c.doc().facts()
                && (c.at().toString().equals("/schema_version") || c.at().toString().equals("/collected_at"))) {
            String line = "pcapdiag: --node-facts " + f + ": $." + c.at().toString().substring(1) + ": ";
            return r.err().startsWith(line) && r.err().strip().lines().count() == 1 ? null : what + " (not one line naming the path)";
        }
        if (r.code() != ExitCodes.OK && r.code() != ExitCodes.FINDINGS) {
            return what;
        }
        try {
            JsonNode report = JSON.readTree(r.out());
            return report != null && report.has("findings") ? null : what + " (no report)";
        } catch (IOException e) {
            return what + " (the report is not JSON: " + e.getMessage().lines().findFirst().orElse("") + ")";
        }
    }

    /** 40 changes drawn from every document's every value and every kind of change. */
    @Test
    @Timeout(120)
    void aSampleOfChangesEachEndsWithAReport(@TempDir Path dir) throws Exception {
        List<Document> docs = documents();
        assertTrue(docs.size() >= 40, docs.size() + " documents");
        Random random = new Random(42);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Document d = docs.get(random.nextInt(docs.size()));
            List<JsonPointer> places = new ArrayList<>();
            places(JSON.readTree(d.file().toFile()), JsonPointer.empty(), places);
            String problem = run(new Change(d, places.get(random.nextInt(places.size())), HOW.get(i % HOW.size())), dir);
            if (problem != null) {
                wrong.add(problem);
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * Every change to every value of the policy-reject scenario's snapshot and of the node-facts fixture (2,450 runs;
     * the scenarios' node facts are mostly counters, which the fixture has too).
     */
    @Test
    @Tag("slow")
    void everyChangeToEveryValueEndsWithAReport(@TempDir Path dir) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Document d : documents()) {
            boolean policySnapshot = d.file().getParent().getFileName().toString().equals("policy-reject") && !d.facts();
            if (!policySnapshot && !d.file().endsWith("node-a.json")) {
                continue;
            }
            List<JsonPointer> places = new ArrayList<>();
            places(JSON.readTree(d.file().toFile()), JsonPointer.empty(), places);
            for (JsonPointer at : places) {
                for (String how : HOW) {
                    String problem = run(new Change(d, at, how), dir);
                    if (problem != null) {
                        wrong.add(problem);
                    }
                }
            }
        }
        assertEquals(List.of(), wrong);
    }
}
