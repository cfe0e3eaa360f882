package io.pcapdiag.track;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.PacketView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The tracker's DNS pairing against Zeek's dns.log, the independent oracle: Zeek is not installable here, its checked-in
 * btest baselines are (../shared/corpus/INDEX.md names the traces that have one). Every row is held to the query the
 * tracker decides for the same client, server and transaction id: question, answered or not, rcode. Every disagreement
 * is listed in the output; those known (each with its reason) are expected, any other fails, and a known one that no
 * longer occurs fails too, so the list stays true. Skipped when ../shared/corpus is absent (never in CI).
 */
class ZeekDnsTest {
    private static final Pattern ROW_TRACE = Pattern.compile("^\\| `([^`]+)` \\|");
    /** A dns.log baseline of a row (btest's dns.log, or a zeek-cut extract of one such as dns.ed25519.log). */
    private static final Pattern DNS_LOG = Pattern.compile("`([^`]*/dns(?:\\.[^`/]*)?\\.log)`");

    /** The corpus's traces with a dns.log baseline (../shared/corpus/INDEX.md), each with its baselines on disk. */
    static Map<String, List<Path>> baselines(Path corpus) throws IOException {
        Map<String, List<Path>> out = new TreeMap<>();
        for (String line : Files.readAllLines(corpus.resolve("INDEX.md"), StandardCharsets.UTF_8)) {
            Matcher t = ROW_TRACE.matcher(line);
            if (!t.find()) {
                continue;
            }
            Matcher b = DNS_LOG.matcher(line);
            while (b.find()) {
                Path log = corpus.resolve(b.group(1));
                if (Files.isRegularFile(log)) { // "upstream only, not copied" baselines are named without a path
                    out.computeIfAbsent(t.group(1), k -> new ArrayList<>()).add(log);
                }
            }
        }
        return out;
    }

    /** ../shared/corpus, or the test aborted when it is absent (never in CI). */
    static Path corpus() {
        Path corpus = CaptureFilesOnDisk.corpusDir();
        if (!Files.isRegularFile(corpus.resolve("INDEX.md"))) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("the Zeek DNS comparison must run in CI, but " + corpus + "/INDEX.md is missing");
            }
            Assumptions.abort("no corpus at " + corpus);
        }
        return corpus;
    }

    /** DNS's port: the tracker pairs queries to it (the cluster DNS Service's port, 53 by default). */
    private static final int DNS_PORT = 53;

    /**
     * What Zeek logs in dns.log on other ports, which pcapdiag does not pair: the name services a pod's resolver does
     * not ask, their queries sent to multicast (mDNS, LLMNR) or broadcast (NetBIOS) groups and answered by whoever holds
     * the name. Counted and said, not compared.
     */
    private static final Map<Integer, String> OTHER_PORTS = Map.of(137, "NetBIOS name service", 5353, "mDNS", 5355, "LLMNR");

    private static final String RESPONSE_ONLY = "the capture holds the response alone, no query: Zeek logs it as a"
            + " transaction, oriented by the ports; pcapdiag counts it an answer to no query";

    /** Known disagreements: capture, client > server and transaction id (and the row's number when a key repeats), and why. */
    private static final Map<String, String> KNOWN = Map.of(
            "zeek/testing/btest/Traces/dns-two-responses.pcap 55.247.223.174:27285 > 222.195.43.124:53 id 21140 (2)",
            "the server answers the one query twice: Zeek logs the second response as a transaction of its own (no"
                    + " qtype: no query open for it), pcapdiag as an answer to a query already answered",
            "zeek/testing/btest/Traces/dns/dns_notify2.pcap 214.187.42.114:53669 > 203.0.113.26:53 id 29661", RESPONSE_ONLY,
            "zeek/testing/btest/Traces/dns53.pcap 10.20.1.31:53 > 207.158.192.40:53 id 25701", RESPONSE_ONLY,
            "zeek/testing/btest/Traces/dns/dynamic-update.pcap 192.168.1.105:62763 > 192.168.1.108:53 id 61191",
            "a DNS UPDATE (RFC 2136, opcode 5), no query: its first section is the zone (StratoLab.org SOA), which pcapdiag"
                    + " reads as the question; Zeek logs another name, the prerequisite record's that follows the zone"
                    + " (NWin1.StratoLab.org)",
            "zeek/testing/btest/Traces/dns/dynamic-update.pcap 192.168.1.106:62763 > 192.168.1.108:53 id 47952",
            "a DNS UPDATE (RFC 2136, opcode 5), refused: as above",
            "zeek/testing/btest/Traces/dns/tkey.pcap 192.168.1.106:50138 > 192.168.1.108:53 id 52640",
            "DNS over TCP with a query of 3,245 octets over three segments: Zeek reassembles the stream; pcapdiag reads"
                    + " DNS over TCP only from a segment that holds a whole message, so it sees the answer, whose query"
                    + " it never read, and no query",
            "zeek/testing/btest/Traces/ipv6-fragmented-dns.pcap [2001:470:1f11:81f:d138:5f55:6d4:1fe2]:51851"
                    + " > [2607:f740:b::f93]:53 id 40849 (2)",
            "the query is sent again 5 s later with the same id and question (the first answer's first fragment is not"
                    + " in the capture): Zeek logs the re-send as a second transaction, unanswered, and pairs the answer with"
                    + " the first; pcapdiag counts one query, asked again and answered");

    /**
     * For every row of every dns.log of the corpus, the tracker's decided query with the same client addr:port, server
     * addr:port and transaction id (the n-th row of a key with the n-th query of it, in the order they were sent), and
     * the two compared: question name (case aside, RFC 4343) and type where Zeek logs them, answered or not (Zeek's
     * rcode unset: no response), and the rcode. A query the tracker decided that no row logs disagrees too.
     */
    @Test
    void dnsPairingAgreesWithZeek() throws Exception {
        Path corpus = corpus();
        Map<String, List<Path>> baselines = baselines(corpus);
        int captures = 0;
        int queries = 0;
        Map<String, Integer> notCompared = new TreeMap<>();
        Map<String, String> disagreements = new TreeMap<>();
        for (Map.Entry<String, List<Path>> e : baselines.entrySet()) {
            List<DnsRow> rows = new ArrayList<>();
            for (Path log : e.getValue()) {
                rows.addAll(DnsRow.of(ZeekLog.read(Files.readAllLines(log, StandardCharsets.UTF_8))));
            }
            if (rows.isEmpty()) {
                notCompared.merge("zeek-cut extracts without trans_id or ports", 1, Integer::sum);
                continue;
            }
            captures++;
            Map<String, List<Attempt>> ours = queries(corpus.resolve(e.getKey()));
            Map<String, Integer> seen = new HashMap<>();
            for (DnsRow r : rows) {
                if (r.serverPort() != DNS_PORT && r.clientPort() != DNS_PORT) {
                    notCompared.merge("rows on port " + r.serverPort() + " (" + OTHER_PORTS.getOrDefault(r.serverPort(),
                            "not DNS's") + ")", 1, Integer::sum);
                    continue;
                }
                queries++;
                String key = key(r.client(), r.clientPort(), r.server(), r.serverPort(), r.transId());
                int n = seen.merge(key, 1, Integer::sum);
                List<Attempt> same = ours.getOrDefault(key, List.of());
                Attempt a = n <= same.size() ? same.get(n - 1) : null;
                String why = a == null ? "pcapdiag decided no query" : differs(r, a);
                if (why != null) {
                    disagreements.put(e.getKey() + " " + key + (n > 1 ? " (" + n + ")" : ""), "Zeek " + zeek(r) + "; pcapdiag "
                            + (a == null ? "none" : ours(a)) + ": " + why);
                }
            }
            for (Map.Entry<String, List<Attempt>> q : ours.entrySet()) {
                for (int n = seen.getOrDefault(q.getKey(), 0) + 1; n <= q.getValue().size(); n++) {
                    queries++;
                    disagreements.put(e.getKey() + " " + q.getKey() + (n > 1 ? " (" + n + ")" : ""), "Zeek logs no such"
                            + " transaction; pcapdiag " + ours(q.getValue().get(n - 1)));
                }
            }
        }
        StringBuilder listing = new StringBuilder("DNS pairing against Zeek: " + captures + " captures, " + queries
                + " queries, " + disagreements.size() + " disagreements");
        notCompared.forEach((k, v) -> listing.append("\n  not compared: ").append(v).append(' ').append(k));
        disagreements.forEach((k, v) -> listing.append("\n  ").append(k).append(": ").append(v)
                .append(KNOWN.containsKey(k) ? " (known: " + KNOWN.get(k) + ")" : ""));
        System.out.println(listing);
        assertTrue(captures >= 20 && queries >= 30, listing::toString);
        assertEquals(new TreeMap<>(KNOWN).keySet(), disagreements.keySet(), listing::toString);
    }

    private static String key(String client, int clientPort, String server, int serverPort, int id) {
        return host(client) + ":" + clientPort + " > " + host(server) + ":" + serverPort + " id " + id;
    }

    private static String host(String ip) {
        return ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip;
    }

    /** Why Zeek's row and pcapdiag's query differ, or null when they agree. */
    private static String differs(DnsRow r, Attempt a) {
        DnsQuery q = a.query();
        if (r.query() != null && !r.query().equalsIgnoreCase(zeekName(q.name()))) {
            return "the question names differ";
        }
        if (r.qtype() != null && r.qtype() != q.type()) {
            return "the question types differ";
        }
        if (r.answered() != a.rcode() >= 0) {
            return r.answered() ? "Zeek saw a response, pcapdiag none" : "pcapdiag saw a response, Zeek none";
        }
        if (r.answered() && r.rcode() != a.rcode()) {
            return "the rcodes differ";
        }
        return null;
    }

    /**
     * A name as pcapdiag decodes it (RFC 1035 presentation form: {@code \.}, {@code \\} and {@code \DDD} escapes) as
     * Zeek's dns.log holds it once its own {@code \xNN} escapes are undone: the bytes.
     */
    static String zeekName(String name) {
        if (name == null) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '\\' && i + 3 < name.length() && Character.isDigit(name.charAt(i + 1))) {
                out.append((char) Integer.parseInt(name.substring(i + 1, i + 4)));
                i += 3;
            } else if (c == '\\' && i + 1 < name.length()) {
                out.append(name.charAt(++i));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static String zeek(DnsRow r) {
        return r.proto() + " " + r.query() + " type " + r.qtype() + (r.answered() ? " rcode " + r.rcode() : " unanswered");
    }

    private static String ours(Attempt a) {
        return (a.udp() ? "udp " : "tcp ") + a.query().name() + " type " + a.query().type() + " " + a.outcome().id()
                + (a.rcode() >= 0 ? " rcode " + a.rcode() : "");
    }

    /**
     * The DNS queries the tracker decides for a capture, fed as the analysis feeds it (the capture's reader, the one
     * decoder, the one tracker), by client > server and transaction id, each key's in the order they were first sent.
     */
    static Map<String, List<Attempt>> queries(Path capture) throws Exception {
        List<Attempt> decided = new ArrayList<>();
        HandshakeTracker tracker = new HandshakeTracker(a -> {
            if (a.query() == null) {
                return false;
            }
            decided.add(a);
            return true;
        }, 100_000);
        try (FrameSource s = CaptureFiles.open(new Capture(0, capture.toString()))) {
            Decoder d = new Decoder();
            PacketView v = new PacketView();
            Frame f;
            while ((f = s.next()) != null) {
                d.decode(f, v);
                tracker.observe(f, v);
            }
        } catch (CaptureException e) {
            // a capture cut on purpose: what came before the cut is compared
        }
        tracker.finish();
        decided.sort(Comparator.comparingLong(Attempt::synNanos));
        Map<String, List<Attempt>> out = new LinkedHashMap<>();
        for (Attempt a : decided) {
            out.computeIfAbsent(key(a.client().address(), a.clientPort(), a.target().address(), a.target().port(), a.query().id()),
                    k -> new ArrayList<>()).add(a);
        }
        return out;
    }

    /** Every dns.log of the corpus reads, each of its rows a transaction (zeek-cut extracts excepted). */
    @Test
    void everyDnsLogOfTheCorpusReads() throws IOException {
        Map<String, List<Path>> baselines = baselines(corpus());
        int logs = 0;
        int rows = 0;
        for (List<Path> l : baselines.values()) {
            for (Path log : l) {
                ZeekLog z = ZeekLog.read(Files.readAllLines(log, StandardCharsets.UTF_8));
                List<DnsRow> r = DnsRow.of(z);
                assertTrue(r.size() == z.rows().size() || !z.fields().contains("trans_id"), log.toString());
                logs++;
                rows += r.size();
            }
        }
        assertTrue(baselines.size() >= 20 && logs >= baselines.size() && rows >= 60, baselines.size() + " traces, " + logs
                + " logs, " + rows + " rows");
    }

    // ---------------------------------------------------------------- Zeek's ASCII log

    /**
     * A Zeek ASCII log as its writer writes it (zeek/src/logging/writers/ascii/Ascii.cc): header lines
     * {@code #separator \x09} (the one header whose value is written with a space and as an escape), then
     * {@code #set_separator}, {@code #empty_field}, {@code #unset_field}, {@code #path}, {@code #open}, {@code #fields},
     * {@code #types} and {@code #close}, each split by the separator; one row per line. Or a zeek-cut {@code -m} output
     * (btest's {@code dns.ed25519.log}): its first line the field names, no types. Other lines starting with # (btest's
     * "### BTest baseline" line) are not the log's.
     *
     * @param fields       the field names
     * @param types        their Zeek types ({@code count}, {@code string}, {@code vector[string]}); empty for zeek-cut
     *                     output
     * @param rows         each row's values as written, by field
     * @param setSeparator between a set's or a vector's elements
     * @param empty        the value written for an empty set, vector or string
     * @param unset        the value written for an unset field
     */
    record ZeekLog(List<String> fields, List<String> types, List<Map<String, String>> rows, String setSeparator, String empty,
                   String unset) {
        /**
         * A field's value: null when unset, {@code ""} when empty, else with Zeek's escapes undone. Unset and empty are
         * told by the value as written: a string "-" is written {@code \x2d}.
         */
        String value(Map<String, String> row, String field) {
            String v = row.get(field);
            return v == null || v.equals(unset) ? null : v.equals(empty) ? "" : unescape(v);
        }

        /** A set's or vector's elements; none when the value is unset or empty. */
        List<String> elements(Map<String, String> row, String field) {
            String v = value(row, field);
            if (v == null || v.isEmpty()) {
                return List.of();
            }
            // Each element is escaped on its own: a separator inside one is written \x2c, never bare.
            return Arrays.stream(row.get(field).split(Pattern.quote(setSeparator), -1)).map(ZeekLog::unescape).toList();
        }

        static ZeekLog read(List<String> lines) {
            String separator = "\t";
            String setSeparator = ",";
            String empty = "(empty)";
            String unset = "-";
            List<String> fields = null;
            List<String> types = List.of();
            List<Map<String, String>> rows = new ArrayList<>();
            for (String line : lines) {
                if (line.startsWith("#separator ")) {
                    separator = unescape(line.substring("#separator ".length()));
                    continue;
                }
                if (line.startsWith("#")) {
                    String[] h = line.split(Pattern.quote(separator), -1);
                    switch (h[0]) {
                        case "#set_separator" -> setSeparator = unescape(h[1]);
                        case "#empty_field" -> empty = unescape(h[1]);
                        case "#unset_field" -> unset = unescape(h[1]);
                        case "#fields" -> fields = List.of(h).subList(1, h.length);
                        case "#types" -> types = List.of(h).subList(1, h.length);
                        default -> {
                        }
                    }
                    continue;
                }
                if (line.isEmpty()) {
                    continue;
                }
                String[] v = line.split(Pattern.quote(separator), -1);
                if (fields == null) {
                    fields = List.of(v); // zeek-cut -m: the field names, then the rows
                    continue;
                }
                if (v.length != fields.size()) {
                    throw new IllegalArgumentException(v.length + " values for " + fields.size() + " fields: " + line);
                }
                Map<String, String> row = new HashMap<>();
                for (int i = 0; i < v.length; i++) {
                    row.put(fields.get(i), v[i]);
                }
                rows.add(row);
            }
            if (fields == null) {
                throw new IllegalArgumentException("no #fields line and no rows");
            }
            if (!types.isEmpty() && types.size() != fields.size()) {
                throw new IllegalArgumentException(types.size() + " types for " + fields.size() + " fields");
            }
            return new ZeekLog(fields, types, rows, setSeparator, empty, unset);
        }

        /** Zeek's escapes undone: {@code \xNN} is the byte NN (as ISO-8859-1, as Zeek writes any byte it escapes). */
        static String unescape(String s) {
            if (s.indexOf('\\') < 0) {
                return s;
            }
            StringBuilder out = new StringBuilder(s.length());
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '\\' && i + 3 < s.length() && s.charAt(i + 1) == 'x' && hex(s.charAt(i + 2)) >= 0
                        && hex(s.charAt(i + 3)) >= 0) {
                    out.append((char) (hex(s.charAt(i + 2)) * 16 + hex(s.charAt(i + 3))));
                    i += 3;
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }

        private static int hex(char c) {
            return Character.digit(c, 16);
        }
    }

    /**
     * One row of a dns.log: one DNS transaction as Zeek pairs it (zeek/scripts/base/protocols/dns/main.zeek). Zeek's
     * rcode unset means no response was seen for the query; its qtype unset, that Zeek logged a response it had no
     * query for (the capture holds none, or a second response to an answered one).
     */
    record DnsRow(String client, int clientPort, String server, int serverPort, String proto, int transId, String query,
                  Integer qtype, Integer rcode) {
        boolean answered() {
            return rcode != null;
        }

        /** The rows of a dns.log; empty when it lacks the fields a row is matched by (zeek-cut output). */
        static List<DnsRow> of(ZeekLog log) {
            if (!log.fields().containsAll(List.of("id.orig_h", "id.orig_p", "id.resp_h", "id.resp_p", "trans_id", "query",
                    "qtype", "rcode"))) {
                return List.of();
            }
            List<DnsRow> out = new ArrayList<>();
            for (Map<String, String> r : log.rows()) {
                out.add(new DnsRow(log.value(r, "id.orig_h"), Integer.parseInt(log.value(r, "id.orig_p")),
                        log.value(r, "id.resp_h"), Integer.parseInt(log.value(r, "id.resp_p")), log.value(r, "proto"),
                        Integer.parseInt(log.value(r, "trans_id")), log.value(r, "query"), count(log.value(r, "qtype")),
                        count(log.value(r, "rcode"))));
            }
            return out;
        }

        private static Integer count(String v) {
            return v == null ? null : Integer.valueOf(v);
        }
    }

    /** The reader on Zeek's own format, written as its ASCII writer writes it (the header of a btest baseline). */
    @Test
    void readsZeeksAsciiLog() {
        List<String> lines = List.of(
                "### BTest baseline data generated by btest-diff. Do not edit. Use \"btest -U/-u\" to update. Requires BTest >= 0.63.",
                "#separator \\x09",
                "#set_separator\t,",
                "#empty_field\t(empty)",
                "#unset_field\t-",
                "#path\tdns",
                "#open\tXXXX-XX-XX-XX-XX-XX",
                "#fields\tts\tid.orig_h\tid.orig_p\tid.resp_h\tid.resp_p\tproto\ttrans_id\tquery\tqtype\trcode\tanswers",
                "#types\ttime\taddr\tport\taddr\tport\tenum\tcount\tstring\tcount\tcount\tvector[string]",
                "XXXXXXXXXX.XXXXXX\t10.0.0.1\t40000\t10.0.0.53\t53\tudp\t4660\twww.example.com\t1\t0\t192.0.2.1,TXT 5 a\\x2cb",
                "XXXXXXXXXX.XXXXXX\tfe80::1\t5353\tff02::fb\t5353\tudp\t0\ttab\\x09in\\x2dname\t28\t-\t-",
                "XXXXXXXXXX.XXXXXX\t10.0.0.1\t40001\t10.0.0.53\t53\ttcp\t7\t\\x2d\t-\t3\t(empty)",
                "#close\tXXXX-XX-XX-XX-XX-XX");
        ZeekLog log = ZeekLog.read(lines);
        assertEquals(11, log.fields().size());
        assertEquals("vector[string]", log.types().get(10));
        assertEquals(3, log.rows().size());
        assertEquals(List.of("192.0.2.1", "TXT 5 a,b"), log.elements(log.rows().get(0), "answers"));
        assertEquals("tab\tin-name", log.value(log.rows().get(1), "query"));
        assertNull(log.value(log.rows().get(1), "rcode"), "- is unset");
        assertEquals("-", log.value(log.rows().get(2), "query"), "a string \"-\" is written escaped, not unset");
        assertEquals("", log.value(log.rows().get(2), "answers"), "(empty)");
        assertEquals(List.of(), log.elements(log.rows().get(2), "answers"));

        List<DnsRow> rows = DnsRow.of(log);
        assertEquals(new DnsRow("10.0.0.1", 40000, "10.0.0.53", 53, "udp", 4660, "www.example.com", 1, 0), rows.get(0));
        assertEquals(new DnsRow("fe80::1", 5353, "ff02::fb", 5353, "udp", 0, "tab\tin-name", 28, null), rows.get(1));
        assertEquals(false, rows.get(1).answered());
        assertEquals(new DnsRow("10.0.0.1", 40001, "10.0.0.53", 53, "tcp", 7, "-", null, 3), rows.get(2));
    }

    /** pcapdiag's names (RFC 1035 presentation form) as Zeek logs them. */
    @Test
    void namesAsZeekLogsThem() {
        assertEquals("www.example.com", zeekName("www.example.com"));
        assertEquals("a.b.example", zeekName("a\\.b.example"), "an escaped dot inside a label: Zeek writes the byte");
        assertEquals("tab\tx\\y", zeekName("tab\\009x\\\\y"));
        assertNull(zeekName(null));
    }

    /** Another separator is read from #separator; zeek-cut -m output has names and rows, no row a DnsRow can be. */
    @Test
    void readsOtherSeparatorsAndZeekCutOutput() {
        ZeekLog comma = ZeekLog.read(List.of("#separator \\x2c", "#set_separator,;", "#unset_field,-", "#fields,a,b",
                "#types,string,set[string]", "x\\x2cy,p;q"));
        assertEquals("x,y", comma.value(comma.rows().get(0), "a"));
        assertEquals(List.of("p", "q"), comma.elements(comma.rows().get(0), "b"));

        ZeekLog cut = ZeekLog.read(List.of("### BTest baseline data", "id.orig_h\tid.resp_h\tqtype_name\tquery\tanswers",
                "192.168.0.107\t8.8.8.8\tA\ted25519.no\t194.63.248.47"));
        assertEquals(List.of("id.orig_h", "id.resp_h", "qtype_name", "query", "answers"), cut.fields());
        assertEquals("ed25519.no", cut.value(cut.rows().get(0), "query"));
        assertEquals(List.of(), DnsRow.of(cut), "no trans_id, no ports: nothing to match a query by");

        assertThrows(IllegalArgumentException.class, () -> ZeekLog.read(List.of("#fields\ta\tb", "1\t2\t3")));
        assertThrows(IllegalArgumentException.class, () -> ZeekLog.read(List.of("#separator \\x09", "#close\tX")));
    }
}
