package io.pcapdiag.live;

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
import io.pcapdiag.cli.Main;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pcapdiag collect} in the lab's node namespace while the lab plays every scenario (scripts/lab/run with
 * PDLAB_LIVE_CMD), its cluster snapshot taken from the fabric8 mock API server loaded with the scenario's cluster, its
 * bundle written to standard output ({@code -o -}, as kubectl pcapdiag streams it) when SIGTERM ends the capture. For
 * every scenario {@code analyze BUNDLE} must give the findings that {@code analyze --cluster --node-facts} gives on the
 * lab's own recording ({@code tcpdump -i any}) with the snapshot and node facts the lab wrote: the same patterns,
 * endpoints, attempts, names and cause verdicts (but for collect's own request to kube-proxy, which only the lab's
 * recorder sees). Skips where the lab cannot run, except in CI.
 */
@Tag("slow")
class CollectLabTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ID = Long.toString(ProcessHandle.current().pid());
    /** How the finding of collect's own request to kube-proxy starts (keys). */
    private static final String KUBE_PROXY_PROBE = "connection-refused 127.0.0.1 -> 127.0.0.1:10249 by 127.0.0.1:10249 x1 ";

    @Test
    void aCollectedBundleGivesTheFindingsOfTheSeparateFilesInEveryScenario(@TempDir Path dir) throws Exception {
        Path lab = projectDir().resolve("scripts/lab/run");
        String why = Files.isExecutable(lab) ? cannotRun(ID, "ip", "iptables", "tcpdump", "dumpcap", "python3", "flock")
                : "scripts/lab/run is missing";
        if (why == null && !Files.exists(Path.of("/proc/sys/net/bridge/bridge-nf-call-iptables"))) {
            why = "the lab needs br_netfilter";
        }
        skipUnlessCi(why);

        Path out = Files.createDirectories(dir.resolve("lab"));
        Path script = dir.resolve("collect.sh");
        List<String> java = java(dir);
        List<String> withTests = new ArrayList<>(java);
        withTests.set(withTests.size() - 1, java.get(java.size() - 1) + File.pathSeparator
                + projectDir().resolve("target/test-classes"));
        Files.writeString(script, collect(String.join(" ", java.stream().map(CollectLabTest::quote).toList()),
                String.join(" ", withTests.stream().map(CollectLabTest::quote).toList())), StandardCharsets.UTF_8);
        List<String> cmd = new ArrayList<>(List.of(lab.toString(), "--out", out.toString()));
        // -Dpcapdiag.lab.scenarios=a,b runs only those (a quicker look while changing collect); by default every one.
        String only = System.getProperty("pcapdiag.lab.scenarios", "");
        if (!only.isBlank()) {
            cmd.addAll(List.of(only.split(",")));
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PDLAB_LIVE_CMD", "bash " + quote(script.toString()));
        pb.environment().put("PDLAB_LIVE_READY", "collect capturing");
        // Three JVMs start per scenario (the mock API server, collect, and the lab's node-facts) on a 2-core machine.
        pb.environment().put("PDLAB_LIVE_READY_TIMEOUT", "120");
        String log = runLab(pb, dir, 30, "collect lab test");

        List<String> scenarios;
        try (Stream<Path> s = Files.list(out)) {
            scenarios = s.filter(d -> Files.exists(d.resolve("live.log"))).map(d -> d.getFileName().toString()).sorted().toList();
        }
        assertFalse(scenarios.isEmpty(), "the lab ran no scenario:\n" + log);
        List<String> problems = new ArrayList<>();
        int findings = 0;
        int named = 0;
        int judged = 0;
        for (String sc : scenarios) {
            Path bundle = out.resolve(sc + ".bundle.tar.gz");
            String liveLog = read(out.resolve(sc).resolve("live.log"));
            if (!liveLog.contains("exit 0")) {
                problems.add(sc + ": collect did not exit 0 on SIGTERM: " + liveLog.strip() + "; stderr: " + read(out.resolve(sc + ".collect.err")));
                continue;
            }
            Path d = out.resolve(sc);
            JsonNode separate = analyze("--cluster", d.resolve("cluster.json").toString(), "--node-facts",
                    d.resolve("node-facts.json").toString(), d.resolve("any.pcap").toString());
            StringWriter err = new StringWriter();
            JsonNode bundled = analyze(err, bundle.toString());
            TreeSet<String> expected = keys(separate);
            // The lab's recorder also sees collect's own request to kube-proxy's /proxyMode (refused: the lab runs no
            // kube-proxy), which collect makes before its capture starts so that its own capture never holds it.
            expected.removeIf(k -> k.startsWith(KUBE_PROXY_PROBE));
            TreeSet<String> got = keys(bundled);
            if (!expected.equals(got)) {
                problems.add(sc + ": analyze BUNDLE gives " + got + " but the separate files give " + expected
                        + "; collect said: " + read(out.resolve(sc + ".collect.err")));
            }
            if (err.toString().contains("no cluster in the bundle") || err.toString().contains("no node facts in the bundle")) {
                problems.add(sc + ": the bundle misses context: " + err);
            }
            for (JsonNode f : bundled.get("findings")) {
                findings++;
                named += f.get("target_ref").isNull() ? 0 : 1;
                for (JsonNode c : f.get("causes")) {
                    judged += c.get("verdict").asText().equals("unknown") ? 0 : 1;
                }
            }
        }
        System.out.println(scenarios.size() + " scenarios, " + findings + " findings from bundles compared, " + named
                + " named, " + judged + " causes judged");
        assertEquals(List.of(), problems);
        assertTrue(findings > 0, "no scenario produced a finding");
        assertTrue(named > 0, "no finding was named from the bundle's cluster snapshot");
        assertTrue(judged > 0, "no cause was judged from the bundle's context");
    }

    /**
     * The PDLAB_LIVE_CMD: the mock API server with the scenario's cluster, then collect until SIGTERM with its bundle
     * on standard output; "collect capturing" once it captures, and on SIGTERM its exit code.
     */
    private static String collect(String java, String javaWithTests) {
        return "#!/usr/bin/env bash\nset -u\nd=$PDLAB_DIR/$PDLAB_SCENARIO\n"
                + javaWithTests + " io.pcapdiag.testing.MockApiServer \"$PDLAB_CLUSTER\" \"$d.kubeconfig\" >\"$d.api.log\" 2>&1 &\n"
                + "api=$!\n"
                + "for _ in $(seq 600); do [ -e \"$d.kubeconfig\" ] && break; sleep 0.05; done\n"
                + java + " io.pcapdiag.cli.Main collect --established --duration 0 --kubeconfig \"$d.kubeconfig\" -o - >\"$d.bundle.tar.gz\""
                + " 2>\"$d.collect.err\" &\n"
                + "c=$!\n"
                + "trap 'kill -TERM \"$c\"; wait \"$c\"; code=$?; kill \"$api\"; echo \"exit $code\"; exit 0' TERM\n"
                + "for _ in $(seq 1000); do grep -q 'capturing until' \"$d.collect.err\" 2>/dev/null && break; sleep 0.05; done\n"
                + "echo 'collect capturing'\nwait\n";
    }

    private static JsonNode analyze(String... args) throws Exception {
        return analyze(new StringWriter(), args);
    }

    private static JsonNode analyze(StringWriter err, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("analyze", "--format", "json"));
        all.addAll(List.of(args));
        StringWriter out = new StringWriter();
        int code = Main.run(all.toArray(String[]::new), new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, code, all + ": " + err);
        return JSON.readTree(out.toString());
    }

    /** Per finding: pattern, endpoints, attempts, the names of its client, target and responder, its causes' verdicts. */
    private static TreeSet<String> keys(JsonNode report) {
        TreeSet<String> out = new TreeSet<>();
        for (JsonNode f : report.get("findings")) {
            StringBuilder causes = new StringBuilder();
            f.get("causes").forEach(c -> causes.append(' ').append(c.get("id").asText()).append('=').append(c.get("verdict").asText()));
            out.add(f.get("pattern").asText() + " " + f.get("client").asText() + " -> " + f.get("target").asText() + " by "
                    + (f.get("responder").isNull() ? "-" : f.get("responder").asText()) + " x" + f.get("attempts").asInt()
                    + " " + f.get("client_ref") + " " + f.get("target_ref") + " " + f.get("responder_ref") + causes);
        }
        return out;
    }

    private static void skipUnlessCi(String why) {
        if (why != null) {
            if (inCi()) {
                fail("the collect lab test must run in CI, but " + why);
            }
            Assumptions.abort(why);
        }
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
