package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * pcapdiag's per-attempt outcomes against Zeek's conn.log, for every corpus trace whose Zeek baselines include one
 * (../shared/corpus/INDEX.md names them). Each TCP connection Zeek saw start with the originator's SYN (history
 * beginning with S) is looked up by its four-tuple among pcapdiag's attempts ({@code --attempts}):
 * <ul>
 *   <li>a SYN-ACK in Zeek's history (h): pcapdiag says answered;</li>
 *   <li>REJ (the SYN answered by a RST): refused;</li>
 *   <li>otherwise no SYN-ACK was seen (S0, SH, RSTOS0...): unanswered, or pending when the capture ends before the
 *       retransmission timeout would have decided it.</li>
 * </ul>
 * Every disagreement is listed; those known (each with its reason) are expected, any other fails, and a known one
 * that no longer occurs fails too, so the list stays true.
 */
class ZeekCrossCheckTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ROW_TRACE = Pattern.compile("^\\| `([^`]+)` \\|");
    private static final Pattern CONN_LOG = Pattern.compile("`([^`]*/conn\\.log)`");

    /** Known disagreements: trace and four-tuple, and why. */
    private static final Map<String, String> KNOWN = Map.of(
            "zeek/testing/btest/Traces/mixed-vlan-mpls.pcap 10.1.2.1:11001 -> 10.34.0.1:23",
            "MPLS: pcapdiag does not decode MPLS labels, so it sees no attempt",
            "zeek/testing/btest/Traces/tunnels/Teredo.pcap [2001:0:4137:9e50:8000:f12a:b9c8:2815]:1286 -> [2001:4860:0:2001::68]:80",
            "Teredo (IPv6 in UDP): pcapdiag does not decode the tunnel, so it sees no attempt");

    private record Conn(String state, String history) {
    }

    @Test
    void outcomesAgreeWithZeekConnLogs() throws IOException {
        Path corpus = CliRun.corpusDir();
        Path index = corpus.resolve("INDEX.md");
        if (!Files.isRegularFile(index)) {
            if (CliRun.inCi()) {
                fail("the Zeek cross-check must run in CI, but " + index + " is missing");
            }
            Assumptions.abort("no corpus at " + corpus);
        }
        Map<String, List<String>> baselines = new TreeMap<>();
        for (String line : Files.readAllLines(index, StandardCharsets.UTF_8)) {
            Matcher t = ROW_TRACE.matcher(line);
            if (!t.find()) {
                continue;
            }
            Matcher b = CONN_LOG.matcher(line);
            while (b.find()) {
                baselines.computeIfAbsent(t.group(1), k -> new ArrayList<>()).add(b.group(1));
            }
        }
        int compared = 0;
        Map<String, Integer> byState = new TreeMap<>();
        Set<String> disagreements = new TreeSet<>();
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : baselines.entrySet()) {
            Map<String, Conn> conns = new LinkedHashMap<>();
            for (String log : e.getValue()) {
                readConnLog(corpus.resolve(log), conns);
            }
            if (conns.isEmpty()) {
                continue;
            }
            Path trace = corpus.resolve(e.getKey());
            CliRun r = CliRun.of("analyze", "--format", "json", "--attempts", "1000000", trace.toString());
            JsonNode report = JSON.readTree(r.out());
            Map<String, String> outcomes = new HashMap<>();
            for (JsonNode a : report.get("attempt_list")) {
                String client = a.get("client").asText();
                String c = (client.indexOf(':') >= 0 ? "[" + client + "]" : client) + ":" + a.get("client_port").asInt();
                outcomes.putIfAbsent(c + " -> " + a.get("target").asText(), a.get("outcome").asText());
            }
            for (Map.Entry<String, Conn> c : conns.entrySet()) {
                compared++;
                Conn z = c.getValue();
                byState.merge(z.state(), 1, Integer::sum);
                String outcome = outcomes.get(c.getKey());
                boolean agrees;
                if (z.history().indexOf('h') >= 0) {
                    agrees = "answered".equals(outcome);
                } else if ("REJ".equals(z.state())) {
                    agrees = "refused".equals(outcome);
                } else {
                    agrees = "unanswered".equals(outcome) || "pending".equals(outcome);
                }
                if (!agrees) {
                    String key = e.getKey() + " " + c.getKey();
                    disagreements.add(key);
                    lines.add(key + ": Zeek " + z.state() + " (history " + z.history() + "), pcapdiag " + outcome
                            + (KNOWN.containsKey(key) ? " (known: " + KNOWN.get(key) + ")" : ""));
                }
            }
        }
        String listed = String.join("\n", lines);
        System.out.println("Zeek cross-check: " + compared + " connections from " + baselines.size() + " traces, by Zeek"
                + " state " + byState + "; " + disagreements.size() + " disagreements" + (listed.isEmpty() ? "" : ":\n" + listed));
        assertTrue(compared >= 60, "compared only " + compared + " connections");
        assertEquals(new TreeSet<>(KNOWN.keySet()), disagreements, listed);
    }

    /** The TCP connections of a Zeek conn.log that began with the originator's SYN, by four-tuple. */
    private static void readConnLog(Path log, Map<String, Conn> into) throws IOException {
        if (!Files.isRegularFile(log)) {
            return;
        }
        List<String> fields = null;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.startsWith("#fields\t")) {
                fields = List.of(line.substring(8).split("\t"));
                continue;
            }
            if (line.startsWith("#") || fields == null || !fields.contains("id.orig_h") || !fields.contains("history")) {
                continue;
            }
            String[] v = line.split("\t", -1);
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < Math.min(v.length, fields.size()); i++) {
                row.put(fields.get(i), v[i]);
            }
            String history = row.getOrDefault("history", "-");
            if (!"tcp".equals(row.get("proto")) || !history.startsWith("S")) {
                continue;
            }
            into.putIfAbsent(host(row.get("id.orig_h")) + ":" + row.get("id.orig_p") + " -> " + host(row.get("id.resp_h"))
                    + ":" + row.get("id.resp_p"), new Conn(row.get("conn_state"), history));
        }
    }

    private static String host(String ip) {
        return ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip;
    }
}
