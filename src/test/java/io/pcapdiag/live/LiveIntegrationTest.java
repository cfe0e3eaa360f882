package io.pcapdiag.live;

import org.junit.jupiter.api.Tag;
import static io.pcapdiag.live.NamespaceSupport.cannotRun;
import static io.pcapdiag.live.NamespaceSupport.inCi;
import static io.pcapdiag.live.NamespaceSupport.java;
import static io.pcapdiag.live.NamespaceSupport.read;
import static io.pcapdiag.live.NamespaceSupport.sh;
import static io.pcapdiag.live.NamespaceSupport.waitFor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.cli.Main;
import io.pcapdiag.track.HandshakeTracker;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pcapdiag live} on a real kernel. Builds a small node in private network namespaces (addresses
 * exist only inside them): a "node" namespace routing between pod namespaces A and B over veths
 * {@code pdv-a}, {@code pdv-b}, plus {@code pdv-c}, which is deleted mid-capture, and {@code pdv-d}, created
 * mid-capture. pcapdiag captures {@code pdv-*} in the node namespace while A dials B: a closed port (RST),
 * a server (answered), a port the node REJECTs (ICMP) and one it DROPs (no response), over IPv4 and IPv6.
 *
 * <p>Checks: the streamed findings and the final report equal {@code pcapdiag analyze} on the
 * {@code --write} files; the metrics endpoint, scraped over the namespace's loopback, shows the counts;
 * the deleted veth costs one warning and capture goes on (and the new one is picked up); SIGTERM ends it
 * with the final report and exit 0. Needs root, iproute2, iptables, python3 and libpcap: skips where it
 * cannot run, except in CI ({@code CI=true}), where a skip is a failure.
 */
@Tag("slow")
class LiveIntegrationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ID = Long.toString(ProcessHandle.current().pid());
    private static final String NODE = "pdlive-node-" + ID;
    private static final String POD_A = "pdlive-a-" + ID;
    private static final String POD_B = "pdlive-b-" + ID;
    private static final String POD_C = "pdlive-c-" + ID;
    private static final List<String> NAMESPACES = List.of(NODE, POD_A, POD_B, POD_C);

    private static final String A4 = "10.211.1.2";
    private static final String GW_A4 = "10.211.1.1";
    private static final String B4 = "10.211.2.2";
    private static final String A6 = "2001:db8:211:1::2";
    private static final String B6 = "2001:db8:211:2::2";
    private static final int METRICS_PORT = 9464;

    private final List<Process> started = new ArrayList<>();

    @Test
    void liveFindingsMetricsVanishingInterfacesAndSigterm(@TempDir Path dir) throws Exception {
        String why = cannotRun(ID, "ip", "iptables", "python3");
        if (why != null) {
            if (inCi()) {
                fail("the live integration test must run in CI, but " + why);
            }
            Assumptions.abort(why);
        }
        topology();
        Process server = start(List.of("ip", "netns", "exec", POD_B, "python3", "-u", "-c", SERVER), dir.resolve("server.log"));
        waitFor(() -> read(dir.resolve("server.log")).contains("listening"), 10, "the test server did not start");

        Path out = dir.resolve("live.out");
        Path err = dir.resolve("live.err");
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", NODE));
        cmd.addAll(java(dir));
        cmd.addAll(List.of("io.pcapdiag.cli.Main", "live", "-i", "pdv-*", "--write", dir.resolve("live.pcap").toString(),
                "--format", "jsonl", "--metrics-port", Integer.toString(METRICS_PORT), "--metrics-address", "127.0.0.1",
                "--summary-interval", "2s", "--rescan-interval", "500ms"));
        Process live = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(live);
        waitFor(() -> Stream.of("pdv-a", "pdv-b", "pdv-c").allMatch(i -> read(err).contains("capturing on " + i + " ")),
                30, "live did not open pdv-a, pdv-b and pdv-c:\n" + read(err));
        waitFor(() -> scrape() != null, 10, "the metrics endpoint did not answer");

        assertEquals("refused", dial(A4, B4, 9, 3));
        assertEquals("ok", dial(A4, B4, 8080, 3));
        assertEquals("ok", dial(A4, B4, 8080, 3));
        // Linux reports an ICMP port unreachable to connect() as ECONNREFUSED: the client cannot tell it from a
        // RST; the capture can.
        assertEquals("refused", dial(A4, B4, 7070, 3));
        assertEquals("timeout", dial(A4, B4, 6060, 2.5));
        assertEquals("refused", dial(A6, B6, 9, 3));

        sh("ip", "-n", NODE, "link", "del", "pdv-c");
        waitFor(() -> read(err).contains("interface pdv-c went away"), 10, "no warning for the deleted veth:\n" + read(err));
        sh("ip", "-n", NODE, "link", "add", "pdv-d", "type", "veth", "peer", "name", "eth1", "netns", POD_C);
        sh("ip", "-n", NODE, "link", "set", "pdv-d", "up");
        waitFor(() -> read(err).contains("capturing on pdv-d "), 10, "the new veth was not picked up:\n" + read(err));
        assertTrue(live.isAlive(), "live ended with the veth:\n" + read(err));
        // Capture goes on: a second refused attempt after the deletion.
        assertEquals("refused", dial(A4, B4, 9, 3));
        // The last packets: an answered connection more than the tracker's linger after the unanswered SYN, so
        // that its clock, live and offline alike, is past every decision when the capture ends.
        Thread.sleep(HandshakeTracker.LINGER_NANOS / 1_000_000 + 600);
        assertEquals("ok", dial(A4, B4, 8080, 3));
        // The tracker decides an attempt seconds after its SYN (it waits for late copies and retransmissions):
        // wait until live has decided all eight, then look at the metrics.
        waitFor(() -> decided() == 8, 20, "live did not decide the 8 attempts:\n" + scrape());
        Map<String, Double> m = LiveAnalysisTest.parse(scrape());

        live.destroy(); // SIGTERM
        assertTrue(live.waitFor(30, TimeUnit.SECONDS), "live did not stop on SIGTERM");
        assertEquals(0, live.exitValue(), "exit code after SIGTERM:\n" + read(err));
        server.destroy();
        // Kept in target/surefire-reports/*-output.txt: what a user of the run would have seen.
        System.out.println("--- pcapdiag live stderr\n" + read(err) + "--- stdout\n" + read(out));

        List<JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
            lines.add(JSON.readTree(line));
        }
        JsonNode report = lines.get(lines.size() - 1);
        assertEquals("report", report.get("event").asText(), "the final report is the last line");
        assertTrue(lines.stream().anyMatch(l -> l.get("event").asText().equals("summary")), "no periodic summary");

        TreeSet<String> liveFindings = new TreeSet<>();
        TreeSet<String> streamed = new TreeSet<>();
        for (JsonNode l : lines) {
            if (l.get("event").asText().equals("finding") && l.get("final").asBoolean()) {
                liveFindings.add(key(l, true)); // the final form the run ends with, before its report line
            } else if (l.get("event").asText().equals("finding")) {
                streamed.add(key(l, false));
            }
        }
        TreeSet<String> expected = new TreeSet<>(List.of(
                "connection-refused " + A4 + " -> " + B4 + ":9 by " + B4 + ":9 x2",
                "connection-refused " + A6 + " -> [" + B6 + "]:9 by [" + B6 + "]:9 x1",
                "icmp-unreachable " + A4 + " -> " + B4 + ":7070 by " + GW_A4 + " x1",
                "no-response " + A4 + " -> " + B4 + ":6060 by null x1"));
        assertEquals(expected, liveFindings, "live findings");

        // The same packets, read back from the --write files, give the same findings offline.
        List<String> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.map(Path::toString).filter(n -> n.matches(".*/live\\.pdv-[a-d]\\.pcap")).sorted().toList();
        }
        assertEquals(4, files.size(), "one --write file per interface: " + files);
        List<String> args = new ArrayList<>(List.of("analyze", "--format", "json"));
        args.addAll(files);
        StringWriter json = new StringWriter();
        StringWriter jsonErr = new StringWriter();
        assertEquals(0, Main.run(args.toArray(String[]::new), new PrintWriter(json), new PrintWriter(jsonErr)), jsonErr.toString());
        assertEquals(liveFindings, findings(JSON.readTree(json.toString())), "offline analysis of the written files");
        TreeSet<String> liveKeys = new TreeSet<>();
        liveFindings.forEach(k -> liveKeys.add(k.replaceAll(" x\\d+$", "")));
        assertEquals(liveKeys, streamed, "every finding was streamed once before the report");

        // Interfaces: the deleted one says why, nothing was dropped.
        Map<String, JsonNode> ifaces = new java.util.TreeMap<>();
        report.get("interfaces").forEach(i -> ifaces.put(i.get("device").asText(), i));
        assertEquals(List.of("pdv-a", "pdv-b", "pdv-c", "pdv-d"), new ArrayList<>(ifaces.keySet()));
        assertFalse(ifaces.get("pdv-c").get("gone").isNull(), "pdv-c should be reported gone");
        assertTrue(ifaces.get("pdv-a").get("gone").isNull());
        for (JsonNode i : ifaces.values()) {
            assertEquals(0, i.get("dropped_by_kernel").asLong(), i.toString());
        }
        assertTrue(ifaces.get("pdv-a").get("packets").asLong() > 0);

        // Metrics as scraped before the stop: the counts of the run.
        assertEquals(3.0, m.get("pcapdiag_attempts_total{outcome=\"refused\"}"), m.toString());
        assertEquals(1.0, m.get("pcapdiag_attempts_total{outcome=\"rejected\"}"));
        assertEquals(1.0, m.get("pcapdiag_attempts_total{outcome=\"unanswered\"}"));
        assertEquals(3.0, m.get("pcapdiag_attempts_total{outcome=\"answered\"}"));
        assertEquals(2.0, m.get("pcapdiag_findings_total{namespace=\"\",pattern=\"connection-refused\",service=\"\"}"));
        assertEquals(1.0, m.get("pcapdiag_findings_total{namespace=\"\",pattern=\"icmp-unreachable\",service=\"\"}"));
        assertEquals(1.0, m.get("pcapdiag_findings_total{namespace=\"\",pattern=\"no-response\",service=\"\"}"));
        assertEquals(3.0, m.get("pcapdiag_finding_attempts{pattern=\"connection-refused\"}"));
        assertEquals(3.0, m.get("pcapdiag_capture_interfaces"), "pdv-a, pdv-b and pdv-d");
        assertTrue(m.get("pcapdiag_capture_packets_total{interface=\"pdv-a\"}") > 0);
        assertTrue(m.get("pcapdiag_capture_received_total{interface=\"pdv-b\"}") > 0);
        assertEquals(0.0, m.get("pcapdiag_capture_dropped_total{by=\"kernel\",interface=\"pdv-a\"}"));
        assertNotNull(m.get("pcapdiag_capture_dropped_total{by=\"interface\",interface=\"pdv-b\"}"));
        assertNull(m.keySet().stream().filter(k -> k.contains("node=")).findFirst().orElse(null),
                "no node label outside a cluster");
    }

    /** pattern client -> target by responder xATTEMPTS, for a finding of the report or a streamed line. */
    private static TreeSet<String> findings(JsonNode doc) {
        TreeSet<String> out = new TreeSet<>();
        doc.get("findings").forEach(f -> out.add(key(f, true)));
        return out;
    }

    private static String key(JsonNode f, boolean attempts) {
        return f.get("pattern").asText() + " " + f.get("client").asText() + " -> " + f.get("target").asText() + " by "
                + (f.get("responder").isNull() ? "null" : f.get("responder").asText())
                + (attempts ? " x" + f.get("attempts").asInt() : "");
    }

    /** A server in pod B: accepts and closes, on both families. */
    private static final String SERVER = String.join("\n",
            "import socket",
            "s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)",
            "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
            "s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)",
            "s.bind(('::', 8080))",
            "s.listen(16)",
            "print('listening', flush=True)",
            "while True:",
            "    c, _ = s.accept()",
            "    c.close()");

    /** A client in pod A: one connection attempt, one word for what happened. */
    private static final String CLIENT = String.join("\n",
            "import socket, sys, errno",
            "src, dst, port, t = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])",
            "fam = socket.AF_INET6 if ':' in dst else socket.AF_INET",
            "s = socket.socket(fam, socket.SOCK_STREAM)",
            "s.bind((src, 0))",
            "s.settimeout(t)",
            "try:",
            "    s.connect((dst, port)); print('ok')",
            "except socket.timeout: print('timeout')",
            "except ConnectionRefusedError: print('refused')",
            "except OSError as e: print('unreachable' if e.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH) else 'error %s' % e)",
            "finally: s.close()");

    private String dial(String src, String dst, int port, double timeout) throws Exception {
        return sh("ip", "netns", "exec", POD_A, "python3", "-c", CLIENT, src, dst, Integer.toString(port),
                Double.toString(timeout)).trim();
    }

    /** Attempts decided so far, from the metrics endpoint. */
    private static double decided() {
        String text = scrape();
        if (text == null) {
            return -1;
        }
        return LiveAnalysisTest.parse(text).entrySet().stream()
                .filter(e -> e.getKey().startsWith("pcapdiag_attempts_total{")).mapToDouble(Map.Entry::getValue).sum();
    }

    /** GET /metrics over the node namespace's loopback; null when nothing answers yet. */
    private static String scrape() {
        try {
            Process p = new ProcessBuilder("ip", "netns", "exec", NODE, "python3", "-c",
                    "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:" + METRICS_PORT
                            + "/metrics', timeout=5).read().decode())").redirectErrorStream(false).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            return p.exitValue() == 0 ? text : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }

    private void topology() throws Exception {
        for (String ns : NAMESPACES) {
            sh("ip", "netns", "add", ns);
            sh("ip", "-n", ns, "link", "set", "lo", "up");
            for (String k : List.of("all", "default")) {
                sysctl(ns, "net.ipv6.conf." + k + ".accept_dad", "0");
                sysctl(ns, "net.ipv6.conf." + k + ".accept_ra", "0");
            }
        }
        sysctl(NODE, "net.ipv4.ip_forward", "1");
        sysctl(NODE, "net.ipv6.conf.all.forwarding", "1");
        String[][] pods = {{"pdv-a", POD_A, "1"}, {"pdv-b", POD_B, "2"}, {"pdv-c", POD_C, "3"}};
        for (String[] p : pods) {
            String veth = p[0];
            String ns = p[1];
            String n = p[2];
            sh("ip", "-n", NODE, "link", "add", veth, "type", "veth", "peer", "name", "eth0", "netns", ns);
            sh("ip", "-n", NODE, "addr", "add", "10.211." + n + ".1/24", "dev", veth);
            sh("ip", "-n", NODE, "addr", "add", "2001:db8:211:" + n + "::1/64", "dev", veth, "nodad");
            sh("ip", "-n", NODE, "link", "set", veth, "up");
            sh("ip", "-n", ns, "addr", "add", "10.211." + n + ".2/24", "dev", "eth0");
            sh("ip", "-n", ns, "addr", "add", "2001:db8:211:" + n + "::2/64", "dev", "eth0", "nodad");
            sh("ip", "-n", ns, "link", "set", "eth0", "up");
            sh("ip", "-n", ns, "route", "add", "default", "via", "10.211." + n + ".1");
            sh("ip", "-n", ns, "-6", "route", "add", "default", "via", "2001:db8:211:" + n + "::1");
        }
        // The node rejects B:7070 (ICMP port unreachable from the node, as kube-proxy does for a Service
        // without endpoints) and drops B:6060 (a policy drop).
        sh("ip", "netns", "exec", NODE, "iptables", "-A", "FORWARD", "-p", "tcp", "--dport", "7070",
                "-j", "REJECT", "--reject-with", "icmp-port-unreachable");
        sh("ip", "netns", "exec", NODE, "iptables", "-A", "FORWARD", "-p", "tcp", "--dport", "6060", "-j", "DROP");
    }

    private static void sysctl(String ns, String key, String value) throws Exception {
        sh("ip", "netns", "exec", ns, "sh", "-c", "echo " + value + " > /proc/sys/" + key.replace('.', '/'));
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : started) {
            p.destroy();
        }
        for (Process p : started) {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        for (String ns : NAMESPACES) {
            // Anything still inside one of our namespaces was started by this test.
            Process pids = new ProcessBuilder("ip", "netns", "pids", ns).redirectErrorStream(true).start();
            String text = new String(pids.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            pids.waitFor(5, TimeUnit.SECONDS);
            for (String pid : text.split("\\s+")) {
                if (pid.matches("\\d+")) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            new ProcessBuilder("ip", "netns", "del", ns).redirectErrorStream(true).start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Process start(List<String> cmd, Path log) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(p);
        return p;
    }

}
