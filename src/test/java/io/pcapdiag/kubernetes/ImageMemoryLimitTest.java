package io.pcapdiag.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image runs {@code live} as the DaemonSet runs it, under the DaemonSet's own limits (podman {@code --memory} and
 * {@code --cpus} from the container's {@code resources.limits}, its environment, securityContext and arguments, all read
 * from the manifest kubectl renders), in a network namespace that stands for the node, while tcpreplay plays the
 * benchmark's SYN flood (NodeTraceGenerator {@code --syn-flood}, the size scripts/bench uses) into it at the trace's own
 * rate. The heap the JVM sizes in the container must leave its own memory room, and live must stay up: not killed for
 * memory, still answering {@code /-/healthy} after the flood, having counted the flood's attempts, and it ends on
 * SIGTERM with its report and exit code 0.
 */
@Tag("slow")
class ImageMemoryLimitTest {
    /** The image scripts/image builds, under a name of this test's own: a build elsewhere cannot swap it in the meantime. */
    private static final String IMAGE = "localhost/pcapdiag-memory-limit:test";
    private static final String NAME = "pcapdiag-memory-limit";
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    record Run(int code, String out) {
    }

    private static Run run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).directory(PROJECT.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(15, TimeUnit.MINUTES), String.join(" ", command) + " did not finish");
        return new Run(p.exitValue(), out);
    }

    private static String ok(List<String> command) throws Exception {
        Run r = run(command);
        assertEquals(0, r.code(), String.join(" ", command) + ":\n" + r.out());
        return r.out();
    }

    @Test
    void liveStaysUpUnderTheDaemonSetsLimitsThroughASynFlood(@TempDir Path dir) throws Exception {
        if (!"0".equals(run(List.of("id", "-u")).out().strip())) {
            skipUnlessCi("not root: podman, the network namespace and tcpreplay need root");
        }
        Run build = run(List.of("scripts/image", "--tag", IMAGE));
        if (build.code() == 3) {
            skip(build.out().lines().filter(l -> l.contains("cannot run a container")).findFirst().orElse(build.out().strip()));
        }
        assertEquals(0, build.code(), "scripts/image failed:\n" + build.out());
        if (run(List.of("sh", "-c", "command -v tcpreplay")).code() != 0) {
            ok(List.of("sh", "-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "
                    + "--no-install-recommends tcpreplay"));
        }

        DaemonSet ds = ImageSmokeTest.daemonSet();
        Container c = ds.getSpec().getTemplate().getSpec().getContainers().get(0);
        Quantity memory = c.getResources().getLimits().get("memory");
        Quantity cpu = c.getResources().getLimits().get("cpu");
        long limitBytes = Quantity.getAmountInBytes(memory).longValueExact();
        BigDecimal cpus = Quantity.getAmountInBytes(cpu);

        Path flood = flood(dir);
        String ns = "pdmem-" + ProcessHandle.current().pid();
        Map<String, String> opts = podmanOpts();
        List<String> podman = new ArrayList<>(List.of("podman"));
        podman.addAll(words(opts.get("PODMAN_GLOBAL")));
        run(concat(podman, List.of("rm", "-f", NAME)));
        try {
            ok(List.of("ip", "netns", "add", ns));
            // rep0 -> cap0, as in scripts/live-bench: what tcpreplay sends on rep0 arrives on cap0. -i any sees both.
            ok(List.of("ip", "-n", ns, "link", "add", "rep0", "type", "veth", "peer", "name", "cap0"));
            ok(List.of("ip", "-n", ns, "link", "set", "rep0", "up"));
            ok(List.of("ip", "-n", ns, "link", "set", "cap0", "up"));
            ok(List.of("ip", "-n", ns, "link", "set", "lo", "up"));

            List<String> live = concat(podman, List.of("run", "-d", "--name", NAME));
            live.addAll(words(opts.get("PODMAN_LIMITS")));
            live.addAll(List.of("--memory", Long.toString(limitBytes), "--memory-swap", Long.toString(limitBytes),
                    "--cpus", cpus.toPlainString(), "--network", "ns:/run/netns/" + ns));
            for (EnvVar e : c.getEnv()) {
                // The downward API's node name has no node here: the namespace stands for one. The JVM also logs the
                // heap it sized at start (gc+init), to stderr.
                String value = e.getValueFrom() != null ? "memory-limit-node"
                        : e.getName().equals("PCAPDIAG_JAVA_OPTS") ? e.getValue() + " -Xlog:gc+init=info:stderr" : e.getValue();
                live.addAll(List.of("-e", e.getName() + "=" + value));
            }
            live.addAll(ImageSmokeTest.securityFlags(c.getSecurityContext()));
            live.add(IMAGE);
            live.addAll(c.getArgs());
            ok(live);
            waitFor(podman, "capturing on", 120);
            // The heap the JVM took in the container leaves the JVM's own memory (code, metaspace, threads, the capture
            // buffer: about 70 MiB through the flood) a quarter of the limit: the launcher's fixed 512 MiB heap did not.
            Matcher heap = Pattern.compile("Heap Max Capacity: (\\d+)([KMG])").matcher(logs(podman));
            assertTrue(heap.find(), "the JVM's gc+init log:\n" + logs(podman));
            long heapBytes = Long.parseLong(heap.group(1)) << switch (heap.group(2)) {
                case "K" -> 10;
                case "M" -> 20;
                default -> 30;
            };
            assertTrue(heapBytes <= limitBytes / 4 * 3, "a heap of " + (heapBytes >> 20) + " MiB under a limit of "
                    + (limitBytes >> 20) + " MiB leaves the JVM's own memory too little");

            Run replay = run(List.of("ip", "netns", "exec", ns, "tcpreplay", "-i", "rep0", "--multiplier=1", flood.toString()));
            assertEquals(0, replay.code(), replay.out());
            // The tracker decides the flood's last attempts about 4 s after their SYN; then the counters are final.
            Thread.sleep(8_000);

            String state = ok(concat(podman, List.of("inspect", "--format",
                    "{{.State.Running}} {{.State.OOMKilled}} {{.RestartCount}}", NAME))).strip();
            assertEquals("true false 0", state, "running, not killed for memory: " + logs(podman));
            String metrics = ok(List.of("ip", "netns", "exec", ns, "python3", "-c", String.join("\n",
                    "import urllib.request",
                    "print(urllib.request.urlopen('http://127.0.0.1:9464/-/healthy', timeout=10).read().decode())",
                    "print(urllib.request.urlopen('http://127.0.0.1:9464/metrics', timeout=10).read().decode())")));
            assertTrue(metrics.startsWith("Exporter is healthy."), metrics);
            double decided = sample(metrics, "pcapdiag_attempts_total", "unanswered") + sample(metrics, "pcapdiag_attempts_total", "evicted");
            double received = sample(metrics, "pcapdiag_capture_received_total", null);
            double dropped = sample(metrics, "pcapdiag_capture_dropped_total", null);
            long peak = peakBytes(podman);
            System.out.printf(Locale.ROOT, "image live under --memory %s (%d MiB) --cpus %s, %s (heap %d MiB): SYN flood of %s"
                            + " replayed (%s); %.0f flood attempts decided, %.0f packets received, %.0f dropped by the kernel;"
                            + " peak memory %s%n",
                    memory, limitBytes >> 20, cpus.toPlainString(), env(c, "PCAPDIAG_JAVA_OPTS"), heapBytes >> 20, flood.getFileName(),
                    replay.out().lines().filter(l -> l.contains("Rated:")).findFirst().orElse("?").strip(),
                    decided, received, dropped, peak < 0 ? "unknown" : (peak >> 20) + " MiB");
            assertTrue(decided > 100_000, "the flood's attempts were analysed: " + decided);

            ok(concat(podman, List.of("kill", "--signal", "TERM", NAME)));
            Run waited = run(concat(podman, List.of("wait", NAME)));
            String log = logs(podman);
            assertEquals("0", waited.out().strip(), "exit code after SIGTERM:\n" + tail(log));
            assertTrue(log.lines().anyMatch(l -> l.startsWith("{\"event\":\"report\"")), "the final report:\n" + tail(log));
            assertEquals("false", ok(concat(podman, List.of("inspect", "--format", "{{.State.OOMKilled}}", NAME))).strip());
        } finally {
            run(concat(podman, List.of("rm", "-f", NAME)));
            run(List.of("ip", "netns", "del", ns));
        }
    }

    /** The benchmark's SYN flood, made by scripts/bench's generator with the number of SYNs scripts/bench gives it. */
    private static Path flood(Path dir) throws Exception {
        Matcher m = Pattern.compile("(?m)^flood_syns=(\\d+)$").matcher(Files.readString(PROJECT.resolve("scripts/bench")));
        assertTrue(m.find(), "scripts/bench sets flood_syns");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        ok(List.of("javac", "-d", classes.toString(), PROJECT.resolve("scripts/bench.d/NodeTraceGenerator.java").toString()));
        Path out = dir.resolve("syn-flood.pcap");
        ok(List.of("java", "-cp", classes.toString(), "io.pcapdiag.bench.NodeTraceGenerator", "--seed", "1",
                "--out", out.toString(), "--syn-flood", m.group(1)));
        return out;
    }

    /** A sample's value, summed over the series of {@code name} (those whose labels contain {@code label} if given). */
    private static double sample(String metrics, String name, String label) {
        return metrics.lines().filter(l -> l.startsWith(name + "{") && (label == null || l.contains("\"" + label + "\"")))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /** The container's peak memory as its cgroup counted it (cgroup v2 memory.peak, v1 max_usage), or -1. */
    private static long peakBytes(List<String> podman) throws Exception {
        String id = ok(concat(podman, List.of("inspect", "--format", "{{.Id}}", NAME))).strip();
        Run find = run(List.of("sh", "-c", "find /sys/fs/cgroup -path '*" + id + "*' \\( -name memory.peak -o -name "
                + "memory.max_usage_in_bytes \\) 2>/dev/null | head -n 1"));
        String file = find.out().strip();
        return file.isEmpty() ? -1 : Long.parseLong(Files.readString(Path.of(file)).strip());
    }

    private static void waitFor(List<String> podman, String line, int seconds) throws Exception {
        for (int i = 0; i < seconds * 2; i++) {
            String log = logs(podman);
            if (log.contains(line)) {
                return;
            }
            if (!ok(concat(podman, List.of("inspect", "--format", "{{.State.Running}}", NAME))).strip().equals("true")) {
                fail("live ended before capturing:\n" + log);
            }
            Thread.sleep(500);
        }
        fail("live did not start capturing in " + seconds + " s:\n" + logs(podman));
    }

    private static String logs(List<String> podman) throws Exception {
        return run(concat(podman, List.of("logs", NAME))).out();
    }

    private static String tail(String log) {
        List<String> lines = log.lines().map(l -> l.length() > 300 ? l.substring(0, 300) + "..." : l).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }

    private static String env(Container c, String name) {
        return c.getEnv().stream().filter(e -> e.getName().equals(name)).map(e -> name + "=" + e.getValue()).findFirst()
                .orElse("no " + name);
    }

    private static Map<String, String> podmanOpts() throws IOException {
        Map<String, String> opts = new TreeMap<>();
        for (String line : Files.readAllLines(PROJECT.resolve("target/podman-opts"))) {
            String[] kv = line.split("=", 2);
            opts.put(kv[0], kv[1].replace("\\ ", " ").replace("''", ""));
        }
        return opts;
    }

    private static List<String> words(String s) {
        return s == null || s.isBlank() ? List.of() : List.of(s.strip().split("\\s+"));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static void skip(String why) {
        System.out.println("ImageMemoryLimitTest skipped: " + why);
        Assumptions.abort(why);
    }

    private static void skipUnlessCi(String why) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("the image memory-limit test must run in CI, but " + why);
        }
        skip(why);
    }
}
