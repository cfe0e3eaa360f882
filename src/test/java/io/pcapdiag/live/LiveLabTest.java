package io.pcapdiag.live;

import org.junit.jupiter.api.Tag;
import static io.pcapdiag.live.NamespaceSupport.cannotRun;
import static io.pcapdiag.live.NamespaceSupport.inCi;
import static io.pcapdiag.live.NamespaceSupport.java;
import static io.pcapdiag.live.NamespaceSupport.projectDir;
import static io.pcapdiag.live.NamespaceSupport.read;
import static io.pcapdiag.live.NamespaceSupport.runLab;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.pcapdiag.cli.Main;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pcapdiag live} on the lab's node while the lab plays every scenario (scripts/lab/run with
 * PDLAB_LIVE_CMD): two live captures at once in the node namespace, {@code -i any} (the DaemonSet's
 * default) and {@code -i cni0,veth*,eth0} (one capture thread per interface, merged in time order). For
 * every scenario the findings each prints in its final report must equal {@code pcapdiag analyze} of its
 * own {@code --write} files and of the lab's tcpdump recording of the same run ({@code -i any}); every
 * finding must have been streamed before the report, and SIGTERM must end both with exit 0. In the DNS scenarios, a
 * failed query is streamed with the DNS Service it dialed named from the cluster (kube-system/kube-dns).
 * Skips where the lab cannot run, except in CI, where a skip is a failure.
 */
@Tag("slow")
class LiveLabTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ID = Long.toString(ProcessHandle.current().pid());
    /** The live captures: label and -i argument. */
    private static final Map<String, String> CAPTURES = Map.of("any", "any", "multi", "cni0,veth*,eth0");
    /** The capture that watches the scenario's cluster (the mock API server) and so names what it finds. */
    private static final String NAMED = "any";

    @Test
    void liveFindingsEqualTheLabsRecordingsInEveryScenario(@TempDir Path dir) throws Exception {
        Path lab = projectDir().resolve("scripts/lab/run");
        String why = Files.isExecutable(lab) ? cannotRun(ID, "ip", "iptables", "tcpdump", "dumpcap", "python3", "flock")
                : "scripts/lab/run is missing";
        if (why == null && !Files.exists(Path.of("/proc/sys/net/bridge/bridge-nf-call-iptables"))) {
            why = "the lab needs br_netfilter";
        }
        skipUnlessCi(why);

        Path out = Files.createDirectories(dir.resolve("lab"));
        Path script = dir.resolve("two-lives.sh");
        List<String> java = java(dir);
        // The mock API server is a test class: the same JVM and jars, with the test classes.
        List<String> withTests = new ArrayList<>(java);
        withTests.set(withTests.size() - 1, java.get(java.size() - 1) + File.pathSeparator
                + projectDir().resolve("target/test-classes"));
        Files.writeString(script, twoLives(String.join(" ", java.stream().map(LiveLabTest::quote).toList()),
                String.join(" ", withTests.stream().map(LiveLabTest::quote).toList())),
                StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(lab.toString(), "--out", out.toString()).redirectErrorStream(true);
        pb.environment().put("PDLAB_LIVE_CMD", "bash " + quote(script.toString()));
        pb.environment().put("PDLAB_LIVE_READY", "both capturing");
        // Three JVMs start per scenario (the mock API server, then both captures) on a 2-core machine.
        pb.environment().put("PDLAB_LIVE_READY_TIMEOUT", "60");
        String log = runLab(pb, dir, 10, "live lab test");

        List<String> scenarios;
        try (Stream<Path> s = Files.list(out)) {
            scenarios = s.filter(d -> Files.exists(d.resolve("live.log"))).map(d -> d.getFileName().toString())
                    .sorted().toList();
        }
        assertFalse(scenarios.isEmpty(), "the lab ran no scenario:\n" + log);
        List<String> problems = new ArrayList<>();
        int findings = 0;
        long named = 0;
        List<String> dnsNamed = new ArrayList<>();
        for (String sc : scenarios) {
            String liveLog = read(out.resolve(sc).resolve("live.log"));
            if (!liveLog.contains("exit 0 0")) {
                problems.add(sc + ": the live captures did not both exit 0 on SIGTERM: " + liveLog.strip());
            }
            TreeSet<String> recorded = analyze(List.of(out.resolve(sc).resolve("any.pcap")));
            for (String label : CAPTURES.keySet()) {
                List<JsonNode> lines = jsonLines(out.resolve(sc + "." + label + ".jsonl"));
                JsonNode report = lines.isEmpty() ? null : lines.get(lines.size() - 1);
                if (report == null || !report.get("event").asText().equals("report")) {
                    problems.add(sc + " " + label + ": no final report; stderr: " + read(out.resolve(sc + "." + label + ".err")));
                    continue;
                }
                // The run's final findings: the finding lines marked final, sent just before the report line.
                ArrayNode finals = JSON.createArrayNode();
                lines.stream().filter(l -> l.get("event").asText().equals("finding") && l.get("final").asBoolean())
                        .forEach(finals::add);
                TreeSet<String> live = keys(finals, true);
                findings += live.size();
                TreeSet<String> written = analyze(files(out, sc + ".live-" + label));
                if (!live.equals(written)) {
                    problems.add(sc + " " + label + ": live " + live + " but its --write files give " + written);
                }
                if (!live.equals(recorded)) {
                    problems.add(sc + " " + label + ": live " + live + " but the lab's recording gives " + recorded);
                }
                Map<String, String> streamed = new TreeMap<>();
                for (JsonNode l : lines) {
                    if (l.get("event").asText().equals("finding") && !l.get("final").asBoolean()) {
                        streamed.put(who(l), l.get("pattern").asText());
                    }
                }
                Map<String, String> reported = new TreeMap<>();
                finals.forEach(f -> reported.put(who(f), f.get("pattern").asText()));
                if (!streamed.equals(reported)) {
                    problems.add(sc + " " + label + ": streamed " + streamed + " but reported " + reported);
                }
                if (label.equals(NAMED)) {
                    Map<String, String> offline = names(analyzeJson(List.of(out.resolve(sc).resolve("any.pcap")),
                            "--cluster", out.resolve(sc).resolve("cluster.json").toString()).get("findings"));
                    Map<String, String> streamedNames = new TreeMap<>();
                    lines.stream().filter(l -> l.get("event").asText().equals("finding"))
                            .forEach(l -> streamedNames.putAll(names(List.of(l))));
                    if (!streamedNames.equals(offline)) {
                        problems.add(sc + " " + label + ": live streamed the names " + streamedNames
                                + " but analyze --cluster gives " + offline + "; stderr: " + read(out.resolve(sc + "." + label + ".err")));
                    }
                    named += offline.values().stream().filter(n -> !n.isEmpty()).count();
                    lines.stream().filter(l -> l.get("event").asText().equals("finding") && !l.get("final").asBoolean()
                            && DNS_FAILURES.contains(l.get("pattern").asText()) && namesKubeDns(l))
                            .forEach(l -> dnsNamed.add(sc + ": " + l));
                }
                report.get("interfaces").forEach(i -> {
                    if (i.get("dropped_by_kernel").asLong() != 0) {
                        problems.add(sc + " " + label + ": kernel drops on " + i);
                    }
                });
            }
        }
        System.out.println(scenarios.size() + " scenarios, " + findings + " live findings compared, " + named
                + " named from the mock API server");
        System.out.println(dnsNamed.size() + " DNS failures streamed naming " + KUBE_DNS + (dnsNamed.isEmpty() ? ""
                : ", the first: " + dnsNamed.get(0)));
        assertEquals(List.of(), problems);
        assertTrue(findings > 0, "no scenario produced a finding");
        assertTrue(named > 0, "no live finding was named from the cluster");
        // A DNS failure, streamed while it happened, names the DNS Service it dialed as the cluster does.
        assertFalse(dnsNamed.isEmpty(), "no DNS failure was streamed naming " + KUBE_DNS);
    }

    /** The patterns of a failed DNS query. */
    private static final java.util.Set<String> DNS_FAILURES = java.util.Set.of("dns-no-response", "dns-error", "dns-race-lost");
    /**
     * The lab's DNS Service (scripts/lab/dns.sh and its cluster.json): its VIP and name. The port's name is the one
     * {@code analyze --cluster} gives, which the names comparison above holds live to.
     */
    private static final String KUBE_DNS = "10.96.0.10:53 (svc kube-system/kube-dns)";

    private static boolean namesKubeDns(JsonNode finding) {
        JsonNode ref = finding.path("target_ref");
        return finding.get("target").asText().equals("10.96.0.10:53") && ref.path("kind").asText().equals("service")
                && ref.path("namespace").asText().equals("kube-system") && ref.path("name").asText().equals("kube-dns");
    }

    /**
     * An MTU black hole is seen only on the node of the pod that sends the full-size segments (pmtu-blackhole's node
     * B): {@code live --established} there streams it as it happens, and finds what analyze finds in the lab's
     * {@code -i any} recording of node B, with no packet dropped.
     */
    @Test
    void liveEstablishedOnTheSendersNodeStreamsTheBlackHole(@TempDir Path dir) throws Exception {
        Path lab = projectDir().resolve("scripts/lab/run");
        String why = Files.isExecutable(lab) ? cannotRun(ID, "ip", "iptables", "ebtables", "tcpdump", "dumpcap", "python3",
                "flock") : "scripts/lab/run is missing";
        skipUnlessCi(why);
        Path out = Files.createDirectories(dir.resolve("lab"));
        Path script = dir.resolve("live-b.sh");
        String java = String.join(" ", java(dir).stream().map(LiveLabTest::quote).toList());
        Files.writeString(script, "#!/usr/bin/env bash\nd=$PDLAB_DIR/$PDLAB_SCENARIO\n" + java
                + " io.pcapdiag.cli.Main live --established -i any --format jsonl --summary-interval 0"
                + " >\"$d.b.jsonl\" 2>\"$d.b.err\" &\npid=$!\n"
                + "trap 'kill -TERM $pid; wait $pid; echo \"exit $?\"; exit 0' TERM\n"
                + "for _ in $(seq 1000); do grep -q capturing \"$d.b.err\" 2>/dev/null && break; sleep 0.05; done\n"
                + "echo 'b capturing'\nwait\n", StandardCharsets.UTF_8);
        ProcessBuilder pb = new ProcessBuilder(lab.toString(), "--out", out.toString(), "pmtu-blackhole").redirectErrorStream(true);
        pb.environment().put("PDLAB_LIVE_CMD", "bash " + quote(script.toString()));
        pb.environment().put("PDLAB_LIVE_READY", "b capturing");
        pb.environment().put("PDLAB_LIVE_READY_TIMEOUT", "60");
        pb.environment().put("PDLAB_LIVE_NODE", "b");
        String log = runLab(pb, dir, 5, "live lab test");
        Path sc = out.resolve("pmtu-blackhole");
        assertTrue(read(sc.resolve("live.log")).contains("exit 0"), read(sc.resolve("live.log")));
        List<JsonNode> lines = jsonLines(out.resolve("pmtu-blackhole.b.jsonl"));
        List<JsonNode> streamed = lines.stream().filter(l -> l.get("event").asText().equals("finding")
                && !l.get("final").asBoolean()).toList();
        assertEquals(List.of("pmtu-blackhole"), streamed.stream().map(l -> l.get("pattern").asText()).distinct().toList(),
                read(out.resolve("pmtu-blackhole.b.err")));
        JsonNode report = lines.get(lines.size() - 1);
        assertEquals("report", report.get("event").asText());
        assertFalse(report.get("interfaces").isEmpty(), report.toString());
        report.get("interfaces").forEach(i -> assertEquals(0, i.get("dropped_by_kernel").asLong(), i.toString()));
        assertTrue(report.get("tracker").get("connections_followed").asLong() > 0, report.toString());
        ArrayNode finals = JSON.createArrayNode();
        lines.stream().filter(l -> l.get("event").asText().equals("finding") && l.get("final").asBoolean()).forEach(finals::add);
        assertEquals(analyze(List.of(sc.resolve("node-b-any.pcap"))), keys(finals, true));
    }

    private static void skipUnlessCi(String why) {
        if (why != null) {
            if (inCi()) {
                fail("the live lab test must run in CI, but " + why);
            }
            Assumptions.abort(why);
        }
    }

    /**
     * The PDLAB_LIVE_CMD: both live captures, "both capturing" once they are, and on SIGTERM their exit codes.
     * Each capture's stdout (JSON lines) and stderr go to files of their own beside the lab's recordings.
     */
    private static String twoLives(String java, String javaWithTests) {
        StringBuilder sb = new StringBuilder("#!/usr/bin/env bash\nset -u\nd=$PDLAB_DIR/$PDLAB_SCENARIO\npids=()\n");
        // The API server of the scenario's cluster, in the node namespace: the fabric8 mock server loaded with
        // the lab's snapshot; the -i any capture watches it.
        sb.append(javaWithTests).append(" io.pcapdiag.testing.MockApiServer \"$PDLAB_CLUSTER\" \"$d.kubeconfig\" >\"$d.api.log\" 2>&1 &\n")
                .append("api=$!\n")
                .append("for _ in $(seq 600); do [ -e \"$d.kubeconfig\" ] && break; sleep 0.05; done\n");
        for (Map.Entry<String, String> c : new TreeMap<>(CAPTURES).entrySet()) {
            String l = c.getKey();
            // --established: the lab's recordings hold every segment, and analyze follows connections in them.
            sb.append(java).append(" io.pcapdiag.cli.Main live --established -i '").append(c.getValue())
                    .append("' --format jsonl --summary-interval 0 --write \"$d.live-").append(l).append(".pcap\"")
                    .append(l.equals(NAMED) ? " --kubeconfig \"$d.kubeconfig\"" : "")
                    .append(" >\"$d.").append(l).append(".jsonl\" 2>\"$d.").append(l).append(".err\" &\npids+=($!)\n");
        }
        sb.append("trap 'kill -TERM \"${pids[@]}\"; codes=; for p in \"${pids[@]}\"; do wait \"$p\"; codes+=\" $?\"; done;"
                + " kill \"$api\"; echo \"exit$codes\"; exit 0' TERM\n");
        sb.append("for _ in $(seq 1000); do\n"
                + "  grep -q capturing \"$d.any.err\" 2>/dev/null && grep -q capturing \"$d.multi.err\" 2>/dev/null"
                + " && grep -q 'cluster: watching' \"$d." + NAMED + ".err\" 2>/dev/null && break\n"
                + "  sleep 0.05\ndone\necho 'both capturing'\nwait\n");
        return sb.toString();
    }

    private static List<Path> files(Path dir, String prefix) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith(prefix + ".")
                    && f.getFileName().toString().endsWith(".pcap")).sorted().toList();
        }
    }

    private static TreeSet<String> analyze(List<Path> files) throws Exception {
        return keys(analyzeJson(files).get("findings"), true);
    }

    private static JsonNode analyzeJson(List<Path> files, String... options) throws Exception {
        assertFalse(files.isEmpty());
        List<String> args = new ArrayList<>(List.of("analyze", "--format", "json"));
        args.addAll(List.of(options));
        files.forEach(f -> args.add(f.toString()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, files + ": " + err);
        return JSON.readTree(out.toString());
    }

    /** Per finding (who), the names its client and target carry: "client_ref | target_ref" as JSON, "" for none. */
    private static Map<String, String> names(Iterable<JsonNode> findings) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode f : findings) {
            String c = f.path("client_ref").isMissingNode() || f.path("client_ref").isNull() ? "" : f.get("client_ref").toString();
            String t = f.path("target_ref").isMissingNode() || f.path("target_ref").isNull() ? "" : f.get("target_ref").toString();
            out.put(who(f), c.isEmpty() && t.isEmpty() ? "" : c + " | " + t);
        }
        return out;
    }

    private static List<JsonNode> jsonLines(Path f) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : read(f).lines().toList()) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    private static TreeSet<String> keys(JsonNode findings, boolean attempts) {
        TreeSet<String> out = new TreeSet<>();
        findings.forEach(f -> out.add(f.get("pattern").asText() + " " + who(f) + (attempts ? " x" + f.get("attempts").asInt() : "")));
        return out;
    }

    private static String who(JsonNode f) {
        return f.get("client").asText() + " -> " + f.get("target").asText() + " by "
                + (f.get("responder").isNull() ? "-" : f.get("responder").asText());
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
