package io.pcapdiag.node;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Network namespaces for the node-facts tests: whether they can run here, running commands, and the java command
 * that runs pcapdiag inside one. Every namespace is named {@code pdnode-<pid>-...} and removed by {@link #close()}.
 */
final class NamespaceLab implements AutoCloseable {
    static final String ID = Long.toString(ProcessHandle.current().pid());
    private final List<String> namespaces = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    /** Skips the test with the reason when namespaces cannot be made here; fails instead when CI=true. */
    static void assumeCanRun(String... tools) {
        String why = cannotRun(tools);
        if (why != null) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("this test must run in CI, but " + why);
            }
            Assumptions.abort(why);
        }
    }

    private static String cannotRun(String... tools) {
        if (!System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux")) {
            return "it needs Linux network namespaces";
        }
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:") && (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 21)) == 0) {
                    return "it needs root (CAP_SYS_ADMIN for network namespaces)";
                }
            }
            for (String tool : tools) {
                if (new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor() != 0) {
                    return tool + " is not installed";
                }
            }
            String probe = "pdnode-" + ID + "-probe";
            Process p = new ProcessBuilder("ip", "netns", "add", probe).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                return "cannot create a network namespace: " + text.trim();
            }
            new ProcessBuilder("ip", "netns", "del", probe).start().waitFor();
        } catch (IOException | InterruptedException e) {
            return "cannot probe: " + e;
        }
        return null;
    }

    /** Creates namespace {@code pdnode-<pid>-<suffix>} (removing a leftover of the same name first). */
    String namespace(String suffix) throws Exception {
        String name = "pdnode-" + ID + "-" + suffix;
        new ProcessBuilder("ip", "netns", "del", name).redirectErrorStream(true).start().waitFor();
        sh("ip", "netns", "add", name);
        namespaces.add(name);
        return name;
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

    /** Runs a shell script in namespace {@code ns}. */
    static String inNs(String ns, String script) throws Exception {
        return sh("ip", "netns", "exec", ns, "sh", "-ec", script);
    }

    Process start(List<String> cmd, Path log) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(p);
        return p;
    }

    /**
     * {@code java ... io.pcapdiag.cli.Main} from a private copy of the compiled classes (a build in the same tree
     * must not swap classes under the running process) and the test class path's jars.
     */
    static List<String> java(Path dir) throws IOException {
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        Path classes = projectDir().resolve("target/classes");
        Path copy = dir.resolve("classes");
        if (!Files.isDirectory(copy)) {
            try (Stream<Path> s = Files.walk(classes)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    Path to = copy.resolve(classes.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(p, to);
                    }
                }
            }
        }
        List<String> cp = new ArrayList<>(List.of(copy.toString()));
        for (String e : testClassPath()) {
            if (e.endsWith(".jar")) {
                cp.add(e);
            }
        }
        return List.of(javaBin, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", String.join(File.pathSeparator, cp),
                "io.pcapdiag.cli.Main");
    }

    static Path projectDir() {
        return Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    }

    private static List<String> testClassPath() throws IOException {
        String prop = System.getProperty("surefire.test.class.path");
        if (prop == null || prop.isBlank()) {
            prop = System.getProperty("java.class.path");
        }
        List<String> out = new ArrayList<>(Arrays.asList(prop.split(File.pathSeparator)));
        if (out.size() == 1 && out.get(0).endsWith(".jar")) {
            try (var jar = new java.util.jar.JarFile(out.get(0))) {
                String manifest = jar.getManifest().getMainAttributes().getValue("Class-Path");
                if (manifest != null) {
                    out.clear();
                    for (String u : manifest.split(" ")) {
                        if (!u.isBlank()) {
                            out.add(Path.of(java.net.URI.create(u)).toString());
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Stops what was started and removes every namespace, whatever happened before. */
    @Override
    public void close() throws IOException {
        boolean interrupted = false;
        for (Process p : processes) {
            p.destroy();
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                interrupted = true;
                p.destroyForcibly();
            }
        }
        List<String> failed = new ArrayList<>();
        for (String ns : namespaces) {
            Process p = new ProcessBuilder("ip", "netns", "del", ns).redirectErrorStream(true).start();
            while (true) {
                try {
                    if (p.waitFor() != 0) {
                        failed.add(ns);
                    }
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // removing the namespaces comes first
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (!failed.isEmpty()) {
            fail("could not remove namespaces " + failed);
        }
    }
}
