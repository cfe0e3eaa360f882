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
 * scripts/pcapdiag runs every command with one class-data archive, trained by the build on analyze's runs over the
 * scenarios' captures with and without their cluster snapshots and node facts, on help runs and on a check. The JVM's own logs say
 * which archive it opened and where each class came from: pcapdiag's, picocli's, and with a snapshot the fabric8
 * Kubernetes model's and Jackson's data binding's (1,337 classes read from the jars without it) come from the archive.
 * Slow: it needs the package phase's installation.
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
     * What the JDK cannot archive: Main's two handlers (of a failed command and of a command line it cannot parse) are
     * lambdas of picocli's interfaces, which are Java 5 class files;
     * dumping such a lambda links its interface, and a linked class of a Java 5 class file is left out of a static
     * archive, with the classes that implement it (picocli's default handler).
     */
    private static final List<String> NOT_ARCHIVABLE = List.of("io.pcapdiag.cli.Main$$Lambda$",
            "picocli.CommandLine$IExecutionExceptionHandler ", "picocli.CommandLine$IParameterExceptionHandler ",
            "picocli.CommandLine$1 ", "picocli.CommandLine$2 ");

    /**
     * Classes of the packages given, loaded by the run: how many, and those not from the archive (but those the JDK cannot
     * archive). Lambda classes count too: the archive holds one per line of the training's class lists, so a merge that
     * drops repeated lines (two call sites of one shape) leaves some out.
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
                    if (!rest.contains("source: shared objects file") && NOT_ARCHIVABLE.stream().noneMatch(rest::startsWith)) {
                        out.add(rest);
                    }
                }
            }
        }
        return out;
    }

    @Test
    void everyRunTakesTheOneArchiveAndFindsItsClassesThere(@TempDir Path dir) throws Exception {
        String archive = PROJECT.resolve("target/pcapdiag/lib/pcapdiag/pcapdiag.jsa").toString();
        List<String> plain = List.of("analyze", SCENARIO + "any.pcap");
        List<String> context = List.of("analyze", "--cluster", SCENARIO + "cluster.json", "--node-facts",
                SCENARIO + "node-facts.json", SCENARIO + "any.pcap");
        // The runs the logged ones are compared with.
        String plainOut = run(null, plain);
        String contextOut = run(null, context);

        Path a = Files.createDirectories(dir.resolve("plain"));
        assertEquals(plainOut, run(a, plain));
        assertEquals(archive, opened(a));
        int[] n = {0};
        assertEquals(List.of(), notShared(a, List.of("io.pcapdiag."), n), "pcapdiag's classes from the archive");
        assertTrue(n[0] > 100, n[0] + " of pcapdiag's classes loaded");

        Path b = Files.createDirectories(dir.resolve("context"));
        assertEquals(contextOut, run(b, context));
        assertEquals(archive, opened(b));
        int[] m = {0};
        assertEquals(List.of(), notShared(b, List.of("io.fabric8.", "com.fasterxml.jackson.databind.", "io.pcapdiag."), m),
                "the model's, data binding's and pcapdiag's classes from the archive");
        assertTrue(m[0] > 800, m[0] + " classes of the model, data binding and pcapdiag loaded");

        Path c = Files.createDirectories(dir.resolve("check"));
        run(c, List.of("check", SCENARIO + "context"));
        assertEquals(archive, opened(c));
        Path d = Files.createDirectories(dir.resolve("live"));
        run(d, List.of("live", "--help"));
        assertEquals(archive, opened(d));
        for (List<String> args : List.of(plain, List.of("analyze", "--help"), List.of("--version"))) {
            Path e = Files.createDirectories(dir.resolve(String.join("-", args).replaceAll("[-/.]", "")));
            run(e, args);
            assertEquals(archive, opened(e), args.toString());
            int[] k = {0};
            assertEquals(List.of(), notShared(e, List.of("picocli."), k), args + ": picocli's classes from the archive");
            assertTrue(k[0] > 50, args + ": " + k[0] + " of picocli's classes loaded");
        }
    }
}
