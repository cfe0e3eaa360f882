package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archive mvn package builds, installed as the README says (unpacked into an empty directory, its
 * launcher linked onto a PATH that has no Maven and no Java): from another directory, through that link and through
 * a chain of two, {@code analyze} prints a capture's golden report byte for byte, {@code check} passes, {@code
 * node-facts} writes its document, {@code --help} and {@code --version} answer, and the bash completion script
 * completes a subcommand. The runs write nothing into the installation and take their classes from the class-data
 * archive the build made elsewhere. Slow: it needs the package phase's archive.
 */
@Tag("slow")
class LauncherDistTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final String SCENARIO = "captures/hairpin-no-brnf";

    record Run(int code, String out, String err) {
    }

    static Run run(Path dir, Map<String, String> env, List<String> command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        Path err = Files.createTempFile("dist", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), command + " did not finish");
        String e = Files.readString(err, StandardCharsets.UTF_8);
        Files.delete(err);
        return new Run(p.exitValue(), out, e);
    }

    /** The archive mvn package built: target/pcapdiag-VERSION.tar.gz, the only one. */
    static Path archive() throws IOException {
        try (Stream<Path> s = Files.list(PROJECT.resolve("target"))) {
            List<Path> found = s.filter(p -> p.getFileName().toString().matches("pcapdiag-.*\\.tar\\.gz")).toList();
            assertEquals(1, found.size(), "one archive in target/: " + found);
            return found.get(0);
        }
    }

    /** The archive unpacked into {@code into} (empty), as the README's install does; its top directory. */
    static Path unpack(Path into) throws Exception {
        Path archive = archive();
        Files.createDirectories(into);
        Run tar = run(into, Map.of("PATH", System.getenv("PATH")), List.of("tar", "-xzf", archive.toString()));
        assertEquals(0, tar.code(), tar.err());
        String top = archive.getFileName().toString().replaceAll("\\.tar\\.gz$", "");
        try (Stream<Path> s = Files.list(into)) {
            assertEquals(List.of(into.resolve(top)), s.toList(), "one top directory, named as the archive");
        }
        return into.resolve(top);
    }

    /** A directory of links to the tools a PATH without Maven and Java still has: bash (for env), readlink, tar. */
    static Path tools(Path dir) throws Exception {
        Path tools = Files.createDirectories(dir.resolve("tools"));
        for (String t : List.of("bash", "readlink")) {
            Run which = run(dir, Map.of("PATH", System.getenv("PATH")), List.of("bash", "-c", "command -v " + t));
            Files.createSymbolicLink(tools.resolve(t), Path.of(which.out().strip()));
        }
        return tools;
    }

    @Test
    void theArchiveInstalledOnAPathWithoutMavenRunsEveryCommandFromAnywhere(@TempDir Path dir) throws Exception {
        Path home = unpack(dir.resolve("opt"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("pcapdiag"), home.resolve("bin/pcapdiag"));
        // A second link, relative, to the first: a chain resolved link by link.
        Path other = Files.createDirectories(dir.resolve("other-bin"));
        Files.createSymbolicLink(other.resolve("pcapdiag"), Path.of("../bin/pcapdiag"));
        String path = bin + ":" + tools(dir);
        Map<String, String> env = Map.of("PATH", path, "HOME", dir.toString());
        assertFalse(run(dir, env, List.of("bash", "-c", "command -v mvn || command -v java")).code() == 0,
                "no Maven and no java on the PATH");
        assertEquals(0, run(dir, env, List.of("bash", "-c", "command -v pcapdiag")).code(), "pcapdiag on the PATH");

        // The working directory: another directory, with a scenario's captures (not the source tree).
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createDirectories(work.resolve(SCENARIO).getParent());
        // With its links (a view's captures link to the scenario's).
        assertEquals(0, run(work, Map.of("PATH", System.getenv("PATH")),
                List.of("cp", "-a", PROJECT.resolve(SCENARIO).toString(), work.resolve(SCENARIO).toString())).code());
        Map<Path, FileTime> before = times(home);

        for (String launcher : List.of("pcapdiag", other.resolve("pcapdiag").toString())) {
            Run a = run(work, env, List.of("bash", "-c", launcher + " analyze \"$@\"", "-", "--color", "never",
                    SCENARIO + "/any.pcap"));
            assertEquals(0, a.code(), a.err());
            assertEquals("", a.err());
            assertEquals(Files.readString(PROJECT.resolve(SCENARIO + "/any.pcap.expected.txt"), StandardCharsets.UTF_8), a.out());
        }
        Run check = run(work, env, List.of("bash", "-c", "pcapdiag check " + SCENARIO));
        assertEquals(0, check.code(), check.out() + check.err());
        assertTrue(check.out().contains(" passed, 0 failed"), check.out());

        Run facts = run(work, env, List.of("bash", "-c", "pcapdiag node-facts -o facts.json"));
        assertEquals(0, facts.code(), facts.err());
        JsonNode doc = new ObjectMapper().readTree(work.resolve("facts.json").toFile());
        assertTrue(doc.has("interfaces"), doc.toString());

        Run help = run(work, env, List.of("bash", "-c", "pcapdiag --help"));
        assertEquals(0, help.code(), help.err());
        assertTrue(help.out().contains("analyze") && help.out().contains("node-facts"), help.out());
        Run version = run(work, env, List.of("bash", "-c", "pcapdiag --version"));
        assertEquals(0, version.code(), version.err());
        String v = home.getFileName().toString().substring("pcapdiag-".length());
        assertTrue(Pattern.compile("pcapdiag " + Pattern.quote(v) + " \\(commit [0-9a-zA-Z.\\-]+\\)\n").matcher(version.out()).matches(),
                version.out());
        assertFalse(version.out().contains("SNAPSHOT"), version.out());

        // Completion: the script sourced into bash completes a subcommand, and an option of one.
        String completion = home.resolve("share/bash-completion/completions/pcapdiag").toString();
        Run complete = run(work, env, List.of("bash", "-c", "source " + completion + "; COMP_WORDS=(pcapdiag ana); COMP_CWORD=1; "
                + "COMP_LINE='pcapdiag ana'; COMP_POINT=${#COMP_LINE}; _complete_pcapdiag; echo \"${COMPREPLY[*]}\"; "
                + "COMP_WORDS=(pcapdiag analyze --for); COMP_CWORD=2; COMP_LINE='pcapdiag analyze --for'; COMP_POINT=${#COMP_LINE}; "
                + "_complete_pcapdiag; echo \"${COMPREPLY[*]}\""));
        assertEquals(0, complete.code(), complete.err());
        assertEquals(List.of("analyze", "--format"), complete.out().lines().map(String::strip).toList(), complete.out());

        // The man pages, in troff.
        for (String page : List.of("pcapdiag.1", "pcapdiag-analyze.1", "pcapdiag-live.1", "pcapdiag-check.1", "pcapdiag-node-facts.1")) {
            String text = Files.readString(home.resolve("share/man/man1/" + page), StandardCharsets.UTF_8);
            assertTrue(text.contains(".TH \"PCAPDIAG"), page + ":\n" + text.substring(0, Math.min(400, text.length())));
        }
        // The kubectl plugin, where the sources have one.
        assertEquals(Files.exists(PROJECT.resolve("scripts/kubectl-pcapdiag")), Files.isExecutable(home.resolve("bin/kubectl-pcapdiag")));

        // Nothing written into the installation (the class-data archive was not made again: the jars' times survived).
        assertEquals(before, times(home));
        // And the classes came from that archive, made where the build ran.
        Path log = dir.resolve("classes.log");
        Map<String, String> logged = new TreeMap<>(env);
        logged.put("PCAPDIAG_JAVA_OPTS", "-Xlog:class+load=info:file=" + log);
        Run logRun = run(work, logged, List.of("bash", "-c", "pcapdiag analyze " + SCENARIO + "/any.pcap"));
        assertEquals(0, logRun.code(), logRun.err());
        List<String> lines = Files.readAllLines(log);
        assertTrue(lines.stream().anyMatch(l -> l.contains(" io.pcapdiag.cli.Main source: shared objects file")),
                "pcapdiag's Main from the class-data archive:\n" + String.join("\n", lines.subList(0, Math.min(20, lines.size()))));
        assertTrue(lines.stream().anyMatch(l -> l.contains(" picocli.CommandLine source: shared objects file")), "picocli's too");
    }

    @Test
    void anyJava17RunsItInsteadOfTheCarriedRuntime(@TempDir Path dir) throws Exception {
        Path home = unpack(dir.resolve("opt"));
        Path tools = tools(dir);
        String javaHome = System.getProperty("java.home");
        Path work = Files.createDirectories(dir.resolve("work"));
        LauncherBuildTest.copyTree(PROJECT.resolve(SCENARIO + "/any.pcap"), work.resolve("any.pcap"));
        String expected = Files.readString(PROJECT.resolve(SCENARIO + "/any.pcap.expected.txt"), StandardCharsets.UTF_8)
                .replace(SCENARIO + "/any.pcap", "any.pcap");
        String launcher = home.resolve("bin/pcapdiag").toString();

        // PCAPDIAG_JAVA_HOME names it: that java runs (-XshowSettings says which), without the archive's class data.
        Run named = run(work, Map.of("PATH", tools.toString(), "PCAPDIAG_JAVA_HOME", javaHome,
                "PCAPDIAG_JAVA_OPTS", "-XshowSettings:properties"), List.of(launcher, "analyze", "any.pcap"));
        assertEquals(0, named.code(), named.err());
        assertEquals(expected, named.out());
        assertTrue(named.err().contains("java.home = " + javaHome), named.err());
        // Without the carried runtime, the java on the PATH runs it.
        Path runtime = home.resolve("lib/pcapdiag/runtime");
        Files.move(runtime, dir.resolve("runtime-aside"));
        Run onPath = run(work, Map.of("PATH", tools + ":" + Path.of(javaHome, "bin"), "PCAPDIAG_JAVA_OPTS",
                "-XshowSettings:properties"), List.of(launcher, "analyze", "any.pcap"));
        assertEquals(0, onPath.code(), onPath.err());
        assertEquals(expected, onPath.out());
        assertTrue(onPath.err().contains("java.home = " + javaHome), onPath.err());
        // Neither java: one line that says so.
        Run none = run(work, Map.of("PATH", tools.toString()), List.of(launcher, "--version"));
        assertEquals(2, none.code());
        assertEquals("pcapdiag: no java on the PATH (Java 17 or later)\n", none.err());
    }

    /** Every file's time of last change under a directory (links not followed). */
    private static Map<Path, FileTime> times(Path dir) throws IOException {
        Map<Path, FileTime> t = new TreeMap<>();
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            s.forEach(all::add);
        }
        for (Path p : all) {
            t.put(dir.relativize(p), Files.getLastModifiedTime(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        }
        return t;
    }
}
