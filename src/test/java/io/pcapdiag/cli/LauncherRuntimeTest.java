package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installation the build assembles runs on a Java runtime of the modules pcapdiag uses, linked (jlink) by the build
 * into lib/pcapdiag/runtime: the JVM resolves a smaller graph of modules at every start. It has what live capture and
 * the cluster's clients need, and JFR's for a developer's PCAPDIAG_JAVA_OPTS. Which other java runs it, and when, is
 * LauncherDistTest's. Slow: it needs the package phase's installation.
 */
@Tag("slow")
class LauncherRuntimeTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    @Test
    void runsOnTheRuntimeTheBuildLinked() throws Exception {
        Path home = PROJECT.resolve("target/pcapdiag");
        ProcessBuilder pb = new ProcessBuilder(home.resolve("bin/pcapdiag").toString(), "--version")
                .directory(PROJECT.toFile()).redirectErrorStream(true);
        pb.environment().put("PCAPDIAG_JAVA_OPTS", "-XshowSettings:properties");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "--version did not finish");
        assertEquals(0, p.exitValue(), out);
        Matcher m = Pattern.compile("(?m)^\\s*java\\.home = (.*)$").matcher(out);
        assertTrue(m.find(), out);
        Path runtime = home.resolve("lib/pcapdiag/runtime");
        assertEquals(runtime.toString(), m.group(1).trim());

        List<String> modules = releaseModules(runtime);
        for (String module : List.of("java.base", "java.net.http", "jdk.httpserver", "jdk.crypto.ec", "jdk.unsupported",
                "java.sql", "jdk.jfr", "jdk.management.jfr")) {
            assertTrue(modules.contains(module), module + " in " + modules);
        }
        assertTrue(modules.size() < 30, modules.size() + " modules: " + modules);
    }

    /**
     * scripts/pcapdiag linked onto a PATH and run from another directory runs the checkout's build: it follows the links
     * to src/dist/bin/pcapdiag and finds the checkout from there, not from the working directory.
     */
    @Test
    void theCheckoutsLauncherRunsThroughALinkFromAnotherDirectory(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("pcapdiag"), PROJECT.resolve("scripts/pcapdiag"));
        // Found on the PATH by the shell, as a user types it.
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", "pcapdiag analyze \"$0\"",
                PROJECT.resolve("captures/closed-port/any.pcap").toString()).directory(dir.toFile());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Path err = dir.resolve("err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "pcapdiag analyze did not finish");
        assertEquals(0, p.exitValue(), Files.readString(err));
        assertEquals("", Files.readString(err), "no build, no error");
        assertTrue(out.contains("connection-refused"), out);
    }

    /** The MODULES line of a runtime's release file. */
    private static List<String> releaseModules(Path runtime) throws IOException {
        for (String line : Files.readAllLines(runtime.resolve("release"))) {
            if (line.startsWith("MODULES=")) {
                return Arrays.asList(line.substring("MODULES=".length()).replace("\"", "").trim().split("\\s+"));
            }
        }
        throw new AssertionError("no MODULES in " + runtime.resolve("release"));
    }
}
