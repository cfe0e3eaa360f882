package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/pcapdiag picks its class-data archive by what the run reads: the plain one for {@code analyze} on a capture
 * alone, the one trained with the scenarios' cluster snapshots and node facts (and a help run, for picocli's classes)
 * for a run given {@code --cluster} or {@code --node-facts}, for {@code check} (whose files give them), for
 * {@code live} (which reads its node's facts and, in a pod, watches the cluster) and for what picocli reads (help,
 * version). The JVM's own logs say which archive it
 * opened and where each class came from: with the second archive, the fabric8 Kubernetes model and Jackson's data
 * binding (1,337 classes read from the jars before it) come from the archive. Slow: the launcher trains both
 * archives after each build (about 3 and 8 s).
 */
@Tag("slow")
class LauncherArchiveTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final String SCENARIO = "captures/vip-local-reject/";

    /** One launcher run; with {@code logs}, the JVM writes its archive's and its class loading's log there. */
    private static String run(Path logs, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(PROJECT.resolve("scripts/pcapdiag").toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(PROJECT.toFile());
        if (logs != null) {
            pb.environment().put("PCAPDIAG_JAVA_OPTS", "-Xlog:cds=info:file=" + logs.resolve("cds.log")
                    + " -Xlog:class+load=info:file=" + logs.resolve("classes.log"));
        }
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), command + " did not finish");
        assertEquals(0, p.exitValue(), command + ":\n" + out);
        return out;
    }

    /** The archive the JVM opened, as its log names it. */
    private static String opened(Path logs) throws Exception {
        for (String line : Files.readAllLines(logs.resolve("cds.log"))) {
            int at = line.indexOf("Opened archive ");
            if (at >= 0) {
                return line.substring(at + "Opened archive ".length()).replaceAll("\\.$", "");
            }
        }
        return "(none: " + Files.readString(logs.resolve("cds.log")) + ")";
    }

    /**
     * Classes of the packages given, loaded by the run: how many, and those not from the archive. Lambda classes count
     * too: the archive holds one per line of the training's class lists, so a merge that drops repeated lines (two call
     * sites of one shape) leaves some out.
     */
    private static List<String> notShared(Path logs, List<String> packages, int[] count) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(logs.resolve("classes.log"))) {
            int at = line.indexOf("[class,load] ");
            if (at < 0) {
                continue;
            }
            String rest = line.substring(at + "[class,load] ".length());
            String name = rest.split(" ", 2)[0];
            for (String p : packages) {
                if (name.startsWith(p)) {
                    count[0]++;
                    if (!rest.contains("source: shared objects file")) {
                        out.add(rest);
                    }
                }
            }
        }
        return out;
    }

    @Test
    void runsWithASnapshotTakeTheArchiveTrainedOnSnapshots(@TempDir Path dir) throws Exception {
        List<String> plain = List.of("analyze", SCENARIO + "any.pcap");
        List<String> context = List.of("analyze", "--cluster", SCENARIO + "cluster.json", "--node-facts",
                SCENARIO + "node-facts.json", SCENARIO + "any.pcap");
        // First runs after a build train the archives; the logged runs after them only use them.
        String plainOut = run(null, plain);
        String contextOut = run(null, context);

        Path a = Files.createDirectories(dir.resolve("plain"));
        assertEquals(plainOut, run(a, plain));
        assertEquals(PROJECT.resolve("target/pcapdiag.jsa").toString(), opened(a));
        int[] n = {0};
        assertEquals(List.of(), notShared(a, List.of("io.pcapdiag."), n), "pcapdiag's classes from the archive");
        assertTrue(n[0] > 100, n[0] + " of pcapdiag's classes loaded");

        Path b = Files.createDirectories(dir.resolve("context"));
        assertEquals(contextOut, run(b, context));
        assertEquals(PROJECT.resolve("target/pcapdiag-context.jsa").toString(), opened(b));
        int[] m = {0};
        assertEquals(List.of(), notShared(b, List.of("io.fabric8.", "com.fasterxml.jackson.databind.", "io.pcapdiag."), m),
                "the model's, data binding's and pcapdiag's classes from the archive");
        assertTrue(m[0] > 800, m[0] + " classes of the model, data binding and pcapdiag loaded");

        Path c = Files.createDirectories(dir.resolve("check"));
        run(c, List.of("check", SCENARIO + "context"));
        assertEquals(PROJECT.resolve("target/pcapdiag-context.jsa").toString(), opened(c));
        Path d = Files.createDirectories(dir.resolve("live"));
        run(d, List.of("live", "--help"));
        assertEquals(PROJECT.resolve("target/pcapdiag-context.jsa").toString(), opened(d));
        // analyze on plain arguments reads them without picocli (its archive has none of the help runs' classes: a
        // smaller archive to relocate at every start); what picocli reads (help, version, @files) takes the second.
        for (List<String> args : List.of(List.of("analyze", "--help"), List.of("--version"))) {
            Path e = Files.createDirectories(dir.resolve(String.join("-", args).replace("-", "")));
            run(e, args);
            assertEquals(PROJECT.resolve("target/pcapdiag-context.jsa").toString(), opened(e), args.toString());
            int[] k = {0};
            assertEquals(List.of(), notShared(e, List.of("picocli."), k), args + ": picocli's classes from the archive");
            assertTrue(k[0] > 50, args + ": " + k[0] + " of picocli's classes loaded");
        }
        int[] few = {0};
        assertEquals(List.of(), notShared(a, List.of("picocli."), few), "the few of picocli's classes analyze loads");
        assertTrue(few[0] < 20, few[0] + " of picocli's classes loaded by analyze on plain arguments");
    }
}
