package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The table of findings at the top of the text report, {@code -o summary} (the table alone), and the findings that
 * {@code --service}, {@code --pod} and {@code --host} keep, over the lab's real captures and their cluster snapshots.
 */
class SummaryTableTest {
    private static final int WIDTH = 120;
    private static final String HAIRPIN = "captures/hairpin-no-brnf/";

    static List<String> captures() throws IOException {
        return Captures.names();
    }

    /** Every capture under captures/, with its directory's context: the summary fits 120 columns and is the text's table. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void theSummaryFits120ColumnsAndIsTheTextReportsTable(String name) throws IOException {
        CliRun summary = CliRun.of(args(name, "-o", "summary"));
        assertEquals("", summary.err());
        summary.out().lines().forEach(l -> assertTrue(l.length() <= WIDTH, l.length() + " columns: " + l));
        CliRun text = CliRun.of(args(name, "--format", "text"));
        List<String> s = summary.out().lines().toList();
        List<String> t = text.out().lines().toList();
        if (s.get(0).startsWith("SEVERITY")) {
            int rows = s.indexOf("");
            assertEquals(t.subList(0, rows), s.subList(0, rows), "the text report opens with the same table");
        }
        assertEquals(t.get(t.size() - 1), s.get(s.size() - 1), "the same closing line");
    }

    /** All the any.pcap views at once, as a user reads a directory of them: one table of every finding. */
    @Test
    void everyViewAtOnceFits() throws IOException {
        List<String> a = new ArrayList<>(List.of("analyze", "-o", "summary", "--color", "never"));
        a.addAll(anyPcaps());
        CliRun r = CliRun.of(a.toArray(String[]::new));
        List<String> lines = r.out().lines().toList();
        assertEquals("SEVERITY  PATTERN", lines.get(0).substring(0, 17));
        lines.forEach(l -> assertTrue(l.length() <= WIDTH, l.length() + " columns: " + l));
        assertEquals(26, lines.indexOf("") - 1, r.out());
        CliRun text = CliRun.of(a.stream().map(x -> x.equals("summary") ? "text" : x).toArray(String[]::new));
        int longest = text.out().lines().mapToInt(String::length).max().orElse(0);
        assertTrue(longest < 300, "no display filter on one line of " + longest + " characters");
        assertTrue(text.out().contains("  Wireshark: the display filter that selects these packets ("), text.out());
    }

    @Test
    void serviceKeepsTheFindingsThatDialedIt() throws IOException {
        CliRun r = filtered("--service", "default/web");
        assertEquals(List.of("nat-bypass-reply svc default/web:http",
                "nat-bypass-reply svc default/web:http"), rows(r));
        // The closing line counts what the whole analysis counted, and says how many findings are shown.
        List<String> all = filtered().out().lines().toList();
        assertTrue(r.out().endsWith(all.get(all.size() - 1) + "; 2 shown, those that concern --service default/web\n"),
                r.out());
        assertTrue(rows(filtered("--service", "default/nothing-by-this-name")).isEmpty());
    }

    /** JSON says what the findings were selected by, and how many of them there are; it validates against its schema. */
    @Test
    void jsonSaysTheSelection() throws IOException {
        List<String> a = new ArrayList<>(List.of("analyze", "-o", "json", "--cluster", HAIRPIN + "cluster.json",
                "--service", "default/web", "--host", "2001:db8:96::/48"));
        a.addAll(anyPcaps());
        CliRun r = CliRun.of(a.toArray(String[]::new));
        JsonNode doc = new ObjectMapper().readTree(r.out());
        JsonNode sel = doc.get("selection");
        assertEquals("[\"default/web\"]", sel.get("service").toString());
        assertEquals("[\"2001:db8:96::/48\"]", sel.get("host").toString());
        assertEquals(doc.get("findings").size(), sel.get("findings_concerned").asInt());
        assertEquals(26, sel.get("findings_total").asInt());
        assertEquals(List.of(), SchemaCheck.errors(JsonSchemas.Document.REPORT, r.out()));
        CliRun all = CliRun.of("analyze", "-o", "json", HAIRPIN + "any.pcap");
        assertFalse(all.out().contains("\"selection\""), "no selection without the options");
    }

    /** A pod is concerned as client, target, or backend: here the backend that answered in the Service's place. */
    @Test
    void podKeepsItsFindingsAsClientTargetOrBackend() throws IOException {
        List<String> web = rows(filtered("--pod", "default/web-5b7c9d8f6-p4q8r"));
        assertTrue(web.contains("nat-bypass-reply svc default/web:http"), web.toString());
        // The pod's name may be shortened in the middle to fit the table's 120 columns.
        assertTrue(web.stream().anyMatch(r -> r.matches("connection-refused default/web-5b7c9d8.*-p4q8r")), web.toString());
        // The UDP datagrams of udp-unreachable went to 10.244.0.19, web's address in this cluster snapshot.
        assertEquals(7, web.size(), web.toString());
        // 13 TCP findings, the 6 DNS and UDP ones and the 2 after the handshake of the same client pod.
        assertEquals(21, rows(filtered("--pod", "default/client-6d8f7b9c4-k2m9x")).size());
    }

    @Test
    void hostTakesIpv4AndIpv6PrefixesAndAddresses() throws IOException {
        assertEquals(List.of("nat-bypass-reply 10.96.0.10:53", "hairpin-self 10.96.30.30:8080",
                "nat-bypass-reply svc defau…/web:http", "reset-after-reply 10.96.70.70:8080", "dns-no-response 10.96.0.10:53",
                "dns-error 10.96.0.10:53", "udp-unreachable 10.96.81.25:8125", "icmp-unreachable 10.96.20.20:80",
                "reset-by-gone-endpoint 10.96.70.70:8080", "dns-race-lost 10.96.0.10:53", "dns-search-expansion 10.96.0.10:53"),
                rows(filtered("--host", "10.96.0.0/16")));
        List<String> v6 = rows(filtered("--host", "2001:db8:96::/48"));
        assertEquals(2, v6.size(), v6.toString());
        v6.forEach(row -> assertTrue(row.contains("[2001:db8:96::") || row.contains("svc default/web"), row));
        // The backend that answered (10.244.0.19) is concerned even where the client dialed the Service.
        assertEquals(5, rows(filtered("--host", "10.244.0.19")).size());
        assertEquals(26, rows(filtered("--host", "0.0.0.0/0", "--host", "::/0")).size());
    }

    /** Filters apply to every format: JSON lists only the findings kept, and counts the others' attempts as not listed. */
    @Test
    void jsonListsTheFindingsKept() throws IOException {
        List<String> a = new ArrayList<>(List.of("analyze", "-o", "json", "--host", "10.96.0.0/16"));
        a.addAll(anyPcaps());
        CliRun r = CliRun.of(a.toArray(String[]::new));
        assertEquals(11, r.out().split("\"pattern\" : ", -1).length - 1, r.out());
    }

    /** The rows of {@code -o summary}, as "pattern target" (a client's name may be shortened to fit). */
    private static List<String> rows(CliRun r) {
        List<String> lines = r.out().lines().toList();
        if (!lines.get(0).startsWith("SEVERITY")) {
            return List.of();
        }
        return lines.subList(1, lines.indexOf("")).stream().map(l -> l.replace("svc ", "svc_").split(" +"))
                .map(c -> c[1] + " " + c[3].replace("svc_", "svc ")).toList();
    }

    /** {@code -o summary} with {@code filter} over every any.pcap view, with the hairpin scenario's snapshot for names. */
    private static CliRun filtered(String... filter) throws IOException {
        List<String> a = new ArrayList<>(List.of("analyze", "-o", "summary", "--color", "never", "--cluster",
                HAIRPIN + "cluster.json"));
        a.addAll(List.of(filter));
        a.addAll(anyPcaps());
        CliRun r = CliRun.of(a.toArray(String[]::new));
        assertEquals("", r.err());
        return r;
    }

    private static List<String> anyPcaps() throws IOException {
        try (Stream<Path> s = Files.list(Captures.dir())) {
            return s.map(d -> d.resolve("any.pcap")).filter(Files::exists)
                    .map(p -> "captures/" + Captures.dir().relativize(p)).sorted().toList();
        }
    }

    /** analyze, the given options, the capture directory's options, the capture. */
    private static String[] args(String name, String... options) throws IOException {
        List<String> a = new ArrayList<>(List.of("analyze", "--color", "never"));
        a.addAll(List.of(options));
        a.addAll(Captures.options(name));
        a.add(Captures.arg(name));
        return a.toArray(String[]::new);
    }
}
