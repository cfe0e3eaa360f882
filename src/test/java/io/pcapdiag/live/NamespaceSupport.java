package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.testing.Launcher;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;

/** What the live tests on a real kernel share: whether they can run here, and running pcapdiag in a namespace. */
final class NamespaceSupport {
    private NamespaceSupport() {
    }

    /** Why this machine cannot run namespace tests, or null. {@code tools} must be on the PATH. */
    static String cannotRun(String id, String... tools) {
        if (!System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return "it needs Linux network namespaces";
        }
        Long eff = Privileges.effectiveCapabilities(Path.of("/proc/self/status"));
        if (eff == null || (eff & (1L << 21)) == 0) { // CAP_SYS_ADMIN: ip netns add
            return "it needs root (CAP_SYS_ADMIN for network namespaces, CAP_NET_RAW to capture)";
        }
        for (String tool : tools) {
            try {
                if (new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor() != 0) {
                    return tool + " is not installed";
                }
            } catch (IOException | InterruptedException e) {
                return "cannot run sh: " + e;
            }
        }
        try {
            org.pcap4j.core.Pcaps.libVersion();
        } catch (UnsatisfiedLinkError | NoClassDefFoundError e) {
            return "libpcap is not installed";
        }
        try {
            Process p = new ProcessBuilder("ip", "netns", "add", "pdlive-probe-" + id).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                return "cannot create a network namespace: " + text.trim();
            }
            new ProcessBuilder("ip", "netns", "del", "pdlive-probe-" + id).start().waitFor();
        } catch (IOException | InterruptedException e) {
            return "cannot run ip: " + e;
        }
        return null;
    }

    /**
     * Runs scripts/lab/run as {@code pb} has it, with the checkout's pcapdiag, to its end within {@code minutes}; its
     * output. A lab that cannot run here (another run in progress, a tool missing) skips the test, or fails it in CI
     * ({@code test} names it there); a lab that fails fails the test.
     */
    static String runLab(ProcessBuilder pb, Path dir, long minutes, String test) throws IOException, InterruptedException {
        pb.environment().put("PDLAB_PCAPDIAG", Launcher.script(Files.createDirectories(dir.resolve("bin"))).toString());
        Process p = pb.start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(minutes, TimeUnit.MINUTES), "the lab did not finish");
        if (p.exitValue() != 0 && (log.contains("another scripts/lab/run is in progress") || log.contains("missing "))) {
            String why = "the lab cannot run: " + log.lines().reduce((a, b) -> b).orElse("");
            if (inCi()) {
                fail("the " + test + " must run in CI, but " + why);
            }
            Assumptions.abort(why);
        }
        assertEquals(0, p.exitValue(), "scripts/lab/run failed:\n" + log);
        return log;
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    static Path projectDir() {
        return Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    }

    /** See {@link Launcher#java}. */
    static List<String> java(Path dir) throws IOException {
        return Launcher.java(dir);
    }

    /** See {@link Launcher#testClassPath}. */
    static List<String> testClassPath() throws IOException {
        return Launcher.testClassPath();
    }

    /** Runs a command to completion; fails the test with its output when it fails. */
    static String sh(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", cmd) + " failed:\n" + text);
        }
        return text;
    }

    static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void waitFor(BooleanSupplier cond, int seconds, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(message);
            }
            Thread.sleep(100);
        }
    }
}
