package io.pcapdiag.kubernetes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image, built by scripts/image with podman from the distribution archive, runs as the launcher does, with the
 * archive's class data: {@code analyze} inside it prints a
 * capture's golden report byte for byte and fails on bad input with the launcher's own line; {@code live}, run with
 * the DaemonSet's own securityContext and arguments (read from the manifest kubectl renders, mapped to podman's
 * flags) in the lab node's network namespace, finds the lab's connection-refused. Where the machine cannot run
 * containers, the test is skipped with scripts/image's one line saying why.
 */
@Tag("slow")
class ImageSmokeTest {
    private static final String IMAGE = "pcapdiag:0.1.0";
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    record Run(int code, String out, String err, long millis) {
    }

    private static Run run(List<String> command, Map<String, String> env) throws Exception {
        long start = System.nanoTime();
        ProcessBuilder pb = new ProcessBuilder(command).directory(PROJECT.toFile());
        pb.environment().putAll(env);
        Path err = Files.createTempFile("smoke", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(15, TimeUnit.MINUTES), String.join(" ", command) + " did not finish");
        String e = Files.readString(err, StandardCharsets.UTF_8);
        Files.delete(err);
        return new Run(p.exitValue(), out, e, (System.nanoTime() - start) / 1_000_000);
    }

    @Test
    void theImageRunsAsTheLauncherDoes(@TempDir Path dir) throws Exception {
        if (!"0".equals(run(List.of("id", "-u"), Map.of()).out().strip())) {
            skipUnlessCi("not root: scripts/image installs podman and the lab needs network namespaces");
        }
        Run build = run(List.of("scripts/image"), Map.of());
        if (build.code() == 3) {
            // podman is there but this kernel or machine cannot run a container: say why, in one line.
            skip(build.err().lines().filter(l -> l.contains("cannot run a container")).findFirst().orElse(build.err().strip()));
        }
        assertEquals(0, build.code(), "scripts/image failed:\n" + build.err());
        String built = build.out().strip();
        System.out.println(built);

        Map<String, String> opts = new TreeMap<>();
        for (String line : Files.readAllLines(PROJECT.resolve("target/podman-opts"))) {
            String[] kv = line.split("=", 2);
            opts.put(kv[0], kv[1].replace("\\ ", " ").replace("''", ""));
        }
        List<String> podman = new ArrayList<>(List.of("podman"));
        podman.addAll(words(opts.get("PODMAN_GLOBAL")));
        podman.add("run");
        podman.add("--rm");
        podman.addAll(words(opts.get("PODMAN_LIMITS")));

        // analyze: the golden report, byte for byte, as the image's default (unprivileged) user.
        String capture = "captures/hairpin-no-brnf/any.pcap";
        List<String> analyze = new ArrayList<>(podman);
        analyze.addAll(List.of("-v", PROJECT.resolve("captures") + ":/work/captures:ro", "-w", "/work", IMAGE,
                "analyze", "--color", "never", capture));
        Run a = run(analyze, Map.of());
        assertEquals(0, a.code(), a.err());
        assertEquals("", a.err(), "nothing on stderr (no 'Picked up JAVA_TOOL_OPTIONS')");
        assertEquals(Files.readString(PROJECT.resolve(capture + ".expected.txt"), StandardCharsets.UTF_8), a.out());
        System.out.println("image analyze " + capture + ": golden report, byte for byte, in " + a.millis() + " ms");
        // With its cluster snapshot and node facts: the fabric8 model and the rest of the runtime's modules at work.
        String scenario = "captures/hairpin-no-brnf/";
        List<String> context = new ArrayList<>(podman);
        context.addAll(List.of("-v", PROJECT.resolve("captures") + ":/work/captures:ro", "-w", "/work", IMAGE,
                "analyze", "--color", "never", "--cluster", scenario + "cluster.json", "--node-facts", scenario + "node-facts.json",
                scenario + "context/any.pcap"));
        Run ctx = run(context, Map.of());
        assertEquals(0, ctx.code(), ctx.err());
        assertEquals(Files.readString(PROJECT.resolve(scenario + "context/any.pcap.expected.txt"), StandardCharsets.UTF_8), ctx.out());

        // The archive's class data serves the image: unpacked by the build's ADD, the jars kept the times it recorded.
        List<String> logged = new ArrayList<>(podman);
        logged.addAll(List.of("-e", "PCAPDIAG_JAVA_OPTS=-Xlog:class+load=info", IMAGE, "--version"));
        Run shared = run(logged, Map.of());
        assertEquals(0, shared.code(), shared.err());
        assertTrue(shared.out().contains(" io.pcapdiag.cli.Main source: shared objects file"), shared.out());
        assertTrue(shared.out().lines().anyMatch(x -> x.matches("pcapdiag 0\\.1\\.0 \\(commit .+\\)")), shared.out());

        // Bad input: the launcher's exit code and one line.
        List<String> missing = new ArrayList<>(podman);
        missing.addAll(List.of("-w", "/tmp", IMAGE, "analyze", "no-such.pcap"));
        Run m = run(missing, Map.of());
        Run launcher = run(List.of("scripts/pcapdiag", "analyze", "no-such.pcap"), Map.of());
        assertEquals(launcher.code(), m.code());
        assertEquals(launcher.err(), m.err());
        // live without NET_RAW, and on an interface that does not exist: the launcher's code and last line (the
        // node-facts line before it names the host, which differs).
        List<String> noCap = new ArrayList<>(podman);
        noCap.addAll(List.of("--network", "none", "--cap-drop", "ALL", "--user", "0", IMAGE, "live", "-i", "lo", "--duration", "1s"));
        sameEnding(run(List.of("capsh", "--drop=cap_net_raw", "--", "-c", "scripts/pcapdiag live -i lo --duration 1s"), Map.of()),
                run(noCap, Map.of()));
        List<String> noIf = new ArrayList<>(podman);
        noIf.addAll(List.of("--network", "none", "--cap-drop", "ALL", "--cap-add", "NET_RAW", "--user", "0", IMAGE, "live",
                "-i", "nosuch0", "--duration", "1s"));
        sameEnding(run(List.of("scripts/pcapdiag", "live", "-i", "nosuch0", "--duration", "1s"), Map.of()), run(noIf, Map.of()));

        // live: the DaemonSet's securityContext, arguments and node name, from the manifest kubectl renders.
        DaemonSet ds = daemonSet();
        PodSpec pod = ds.getSpec().getTemplate().getSpec();
        assertEquals(Boolean.TRUE, pod.getHostNetwork(), "hostNetwork stands for the lab node's network namespace");
        Container c = pod.getContainers().get(0);
        List<String> live = new ArrayList<>(podman);
        live.addAll(List.of("--name", "pcapdiag-smoke", "--network", "ns:$PDLAB_NETNS", "-e", "NODE_NAME=$NODE_NAME"));
        live.addAll(securityFlags(c.getSecurityContext()));
        live.add(IMAGE);
        live.addAll(c.getArgs());
        Path out = Files.createDirectories(dir.resolve("lab"));
        Run lab = run(List.of(PROJECT.resolve("scripts/lab/run").toString(), "--out", out.toString(), "closed-port"),
                Map.of("PDLAB_LIVE_NETNS", "outside", "PDLAB_LIVE_CMD", String.join(" ", live),
                        "PDLAB_LIVE_READY", "capturing", "PDLAB_LIVE_READY_TIMEOUT", "60"));
        assertEquals(0, lab.code(), "scripts/lab/run failed:\n" + lab.err());
        String log = Files.readString(out.resolve("closed-port/live.log"), StandardCharsets.UTF_8);
        assertTrue(log.contains("\"event\":\"finding\"") && log.contains("\"pattern\":\"connection-refused\"")
                && log.contains("\"target\":\"10.244.0.19:8081\""), "live in the image with the DaemonSet's flags:\n" + log);
        assertTrue(log.lines().anyMatch(l -> l.startsWith("{\"event\":\"report\"")), "the final report after SIGTERM:\n" + log);
        System.out.println("image live with " + String.join(" ", securityFlags(c.getSecurityContext())) + " "
                + String.join(" ", c.getArgs()) + ": connection-refused 10.244.0.18 -> 10.244.0.19:8081 (lab run "
                + lab.millis() + " ms)");
    }

    private static void sameEnding(Run launcher, Run image) {
        assertEquals(launcher.code(), image.code(), image.err());
        List<String> l = launcher.err().lines().toList();
        List<String> i = image.err().lines().toList();
        assertTrue(!l.isEmpty() && !i.isEmpty(), "no error line: " + launcher + " / " + image);
        assertEquals(l.get(l.size() - 1), i.get(i.size() - 1));
    }

    /** The container securityContext as podman's flags; a field this does not map fails the test. */
    static List<String> securityFlags(SecurityContext sc) {
        List<String> f = new ArrayList<>();
        if (Boolean.TRUE.equals(sc.getPrivileged())) {
            f.add("--privileged");
        }
        if (Boolean.FALSE.equals(sc.getAllowPrivilegeEscalation())) {
            f.addAll(List.of("--security-opt", "no-new-privileges"));
        }
        if (Boolean.TRUE.equals(sc.getReadOnlyRootFilesystem())) {
            f.add("--read-only");
        }
        if (sc.getRunAsUser() != null) {
            f.addAll(List.of("--user", sc.getRunAsUser().toString()));
        }
        if (sc.getCapabilities() != null) {
            sc.getCapabilities().getDrop().forEach(d -> f.addAll(List.of("--cap-drop", d)));
            sc.getCapabilities().getAdd().forEach(a -> f.addAll(List.of("--cap-add", a)));
        }
        if (sc.getSeccompProfile() != null) {
            assertEquals("RuntimeDefault", sc.getSeccompProfile().getType(), "podman runs its default seccomp profile");
        }
        Set<String> mapped = Set.of("privileged", "allowPrivilegeEscalation", "readOnlyRootFilesystem", "runAsUser",
                "runAsNonRoot", "capabilities", "seccompProfile");
        Map<String, Object> fields = Serialization.jsonMapper().convertValue(sc, Map.class);
        fields.keySet().forEach(k -> assertTrue(mapped.contains(k), "securityContext." + k + " is not mapped to podman"));
        return f;
    }

    /** The DaemonSet as `kubectl kustomize` renders the base: what a cluster is given (ImageMemoryLimitTest reads it too). */
    static DaemonSet daemonSet() throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("kubectl", "kustomize", PROJECT.resolve("src/main/kubernetes/base").toString()).start();
        } catch (IOException e) {
            skipUnlessCi("kubectl is not installed (scripts/test installs it)");
            return null;
        }
        String yaml = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        for (String doc : yaml.split("(?m)^---$")) {
            HasMetadata o = Serialization.unmarshal(doc);
            if (o instanceof DaemonSet ds) {
                return ds;
            }
        }
        fail("no DaemonSet in the rendered manifests");
        return null;
    }

    private static List<String> words(String s) {
        return s == null || s.isBlank() ? List.of() : List.of(s.strip().split("\\s+"));
    }

    /** Skipped with one line saying why: where containers cannot run (allowed in CI, said), or, outside CI, no root or kubectl. */
    private static void skip(String why) {
        System.out.println("ImageSmokeTest skipped: " + why);
        Assumptions.abort(why);
    }

    private static void skipUnlessCi(String why) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            fail("the image smoke test must run in CI, but " + why);
        }
        skip(why);
    }
}
