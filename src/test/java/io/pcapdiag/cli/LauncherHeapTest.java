package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The launcher's heap sizes give way to the user's: with {@code -Xmx}, or with a share of the memory
 * ({@code -XX:MaxRAMPercentage}, {@code -XX:InitialRAMPercentage}, {@code -XX:MinRAMPercentage}, as the DaemonSet sizes
 * the heap from its container's limit) in PCAPDIAG_JAVA_OPTS, it drops its own -Xms, -Xmn and -Xmx, so that the JVM
 * sizes the heap as that same java does given only the user's flags. Slow: it needs the package phase's installation.
 */
@Tag("slow")
class LauncherHeapTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final Path HOME = PROJECT.resolve("target/pcapdiag");
    private static final long MIB = 1024 * 1024;

    /** The JVM's final flag values (-XX:+PrintFlagsFinal) for a command. */
    private static long flag(List<String> command, String opts, String name) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(PROJECT.toFile()).redirectErrorStream(true);
        pb.environment().put("PCAPDIAG_JAVA_OPTS", opts + " -XX:+PrintFlagsFinal");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), command + " did not finish");
        assertEquals(0, p.exitValue(), out);
        Matcher m = Pattern.compile("(?m)^\\s*\\S+\\s+" + name + "\\s+= (\\d+)").matcher(out);
        assertTrue(m.find(), name + " in\n" + out);
        return Long.parseLong(m.group(1));
    }

    private static long launcher(String opts, String name) throws Exception {
        return flag(List.of(HOME.resolve("bin/pcapdiag").toString(), "--version"), opts, name);
    }

    /** The same java, given the launcher's collector and the user's flags alone. */
    private static long plain(String opts, String name) throws Exception {
        List<String> c = new ArrayList<>(List.of("bash", "-c", "exec \"$0\" -XX:+UseParallelGC $PCAPDIAG_JAVA_OPTS -version",
                HOME.resolve("lib/pcapdiag/runtime/bin/java").toString()));
        return flag(c, opts, name);
    }

    @Test
    void aHeapSizedByTheUserDropsTheLaunchersSizes() throws Exception {
        // The launcher's own: 256 MiB to start, 512 MiB at most.
        assertEquals(512 * MIB, launcher("", "MaxHeapSize"));
        assertEquals(256 * MIB, launcher("", "InitialHeapSize"));
        assertEquals(1024 * MIB, launcher("-Xmx1g", "MaxHeapSize"));

        for (String opts : List.of("-XX:MaxRAMPercentage=10", "-XX:MinRAMPercentage=10 -XX:MaxRAMPercentage=20")) {
            long max = launcher(opts, "MaxHeapSize");
            assertEquals(plain(opts, "MaxHeapSize"), max, opts);
            assertNotEquals(512 * MIB, max, opts + ": this machine's memory gives that share another size than 512 MiB");
        }
        String initial = "-XX:InitialRAMPercentage=3";
        assertEquals(plain(initial, "InitialHeapSize"), launcher(initial, "InitialHeapSize"));
        assertEquals(plain(initial, "MaxHeapSize"), launcher(initial, "MaxHeapSize"));
        assertNotEquals(256 * MIB, launcher(initial, "InitialHeapSize"));
        // A share and the launcher's young generation: -Xmn goes too (a 128 MiB young generation in a smaller heap).
        assertEquals(plain("-XX:MaxRAMPercentage=10", "NewSize"), launcher("-XX:MaxRAMPercentage=10", "NewSize"));
    }
}
