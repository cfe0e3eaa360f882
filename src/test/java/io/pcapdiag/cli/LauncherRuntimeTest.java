package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/pcapdiag runs pcapdiag on a Java runtime of the modules it uses, linked (jlink) into target/runtime from the
 * JDK whose java is on the PATH, and links it again when that JDK was upgraded, or runs the other java when the PATH
 * names another one, and marks a java it cannot link from (no jlink) so that later runs do not try again. In a copy of
 * the launcher, the jar and its libraries (no sources: nothing to build; no captures: no archive to train). Slow: each
 * link takes a few seconds.
 */
@Tag("slow")
class LauncherRuntimeTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    /** The launcher's --version, with the JVM's settings printed: which java.home ran. */
    private static String javaHome(Path project, String path) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(project.resolve("scripts/pcapdiag").toString(), "--version")
                .directory(project.toFile()).redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("PCAPDIAG_JAVA_OPTS", "-XshowSettings:properties");
        if (path != null) {
            env.put("PATH", path);
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "scripts/pcapdiag --version did not finish");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("pcapdiag "), out);
        Matcher m = Pattern.compile("(?m)^\\s*java\\.home = (.*)$").matcher(out);
        assertTrue(m.find(), out);
        return m.group(1).trim();
    }

    @Test
    void runsOnARuntimeLinkedFromTheJdkOnThePathAndLinksItAgainWhenThatChanges(@TempDir Path dir) throws Exception {
        Path copy = dir.resolve("project");
        for (String p : List.of("scripts/pcapdiag", "target/pcapdiag.jar", "target/lib")) {
            LauncherBuildTest.copyTree(PROJECT.resolve(p), copy.resolve(p));
        }
        Path runtime = copy.resolve("target/runtime");

        // The first run links it, and runs on it.
        assertEquals(runtime.toString(), javaHome(copy, null));
        // With every module the image's runtime has (what live and the cluster's clients need), and JFR's for a
        // developer's PCAPDIAG_JAVA_OPTS.
        List<String> modules = releaseModules(runtime);
        for (String m : imageModules()) {
            assertTrue(modules.contains(m), m + " in " + modules);
        }
        assertTrue(modules.contains("jdk.jfr"), modules.toString());
        assertTrue(modules.size() < 30, modules.size() + " modules: " + modules);

        // The JDK upgraded after the link (its lib/ newer than the runtime): linked again.
        Instant before = Instant.now().minusSeconds(2);
        Files.setLastModifiedTime(runtime.resolve("release"), FileTime.from(Instant.parse("2000-01-01T00:00:00Z")));
        assertEquals(runtime.toString(), javaHome(copy, null));
        assertTrue(Files.getLastModifiedTime(runtime.resolve("release")).toInstant().isAfter(before),
                "linked again: " + Files.getLastModifiedTime(runtime.resolve("release")));
        // And not again on the next run.
        FileTime linked = Files.getLastModifiedTime(runtime.resolve("release"));
        assertEquals(runtime.toString(), javaHome(copy, null));
        assertEquals(linked, Files.getLastModifiedTime(runtime.resolve("release")), "linked once");

        // Another java first on the PATH (here a runtime of its own, which has no jlink to link from): that one runs,
        // not the runtime linked from the first.
        Path other = dir.resolve("other-java");
        LauncherBuildTest.copyTree(runtime, other);
        String path = other.resolve("bin") + ":" + System.getenv("PATH");
        assertEquals(other.toString(), javaHome(copy, path));
        // Where there is no jlink to link with, the launcher says so in a mark of its own, and the next runs with the
        // same java do not look again (a link that fails would cost each of them seconds).
        Path none = copy.resolve("target/runtime.none");
        assertTrue(Files.isSameFile(none.resolve("jdk-java"), other.resolve("bin/java")), "marked for the other java");
        FileTime marked = Files.getLastModifiedTime(none.resolve("release"));
        assertEquals(other.toString(), javaHome(copy, path));
        assertEquals(marked, Files.getLastModifiedTime(none.resolve("release")), "not looked at again");
        // The runtime linked from the first JDK is still there, and runs again once that JDK is first on the PATH.
        assertEquals(runtime.toString(), javaHome(copy, null));
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

    /** The modules scripts/image links the image's runtime with. */
    private static List<String> imageModules() throws IOException {
        for (String line : Files.readAllLines(PROJECT.resolve("scripts/image"))) {
            if (line.startsWith("modules=")) {
                return Arrays.asList(line.substring("modules=".length()).split(","));
            }
        }
        throw new AssertionError("no modules= in scripts/image");
    }
}
