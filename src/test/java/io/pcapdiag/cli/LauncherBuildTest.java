package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/pcapdiag builds (mvn package: the jar and the installation in target/pcapdiag) when anything under src/main,
 * src/dist or the pom is newer than that installation. A change that leaves the
 * jar as it was (a directory whose entries changed, as an editor's swap file or {@code sed -i} makes, with no source
 * changed) made every later run build again, 5 s each. Slow: it runs Maven in a copy of the project.
 */
@Tag("slow")
class LauncherBuildTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final String BUILDING = "pcapdiag: building";

    @Test
    void aBuildThatLeavesTheJarAsItWasIsNotRepeated(@TempDir Path dir) throws Exception {
        // Every file and directory as old as in the project.
        Path copy = dir.resolve("project");
        for (String p : List.of("pom.xml", ".mvn", "src/main", "src/dist", "README.md", "docs")) {
            copyTree(PROJECT.resolve(p), copy.resolve(p));
        }
        Files.createDirectories(copy.resolve("scripts"));
        Files.createSymbolicLink(copy.resolve("scripts/pcapdiag"), Files.readSymbolicLink(PROJECT.resolve("scripts/pcapdiag")));
        for (String p : List.of("target/classes", "target/lib", "target/maven-status", "target/maven-archiver",
                "target/generated-sources", "target/pcapdiag.jar")) {
            if (Files.exists(PROJECT.resolve(p))) {
                copyTree(PROJECT.resolve(p), copy.resolve(p));
            }
        }
        // Maven's incremental compiler keeps the absolute paths of the sources it compiled: in the copy it would
        // compile everything again, and write the jar anew. Compared by time, as in the tree the copy is of.
        Files.writeString(copy.resolve(".mvn/maven.config"), "-Dmaven.compiler.useIncrementalCompilation=false\n");
        // Then one directory's entries change, and no source.
        Path pkg = copy.resolve("src/main/java/io/pcapdiag");
        Files.delete(Files.createFile(pkg.resolve(".Main.java.swp")));

        // Maven finds nothing to compile and leaves the jar as it was ("Archive ... is uptodate" with -X).
        String first = run(copy);
        assertTrue(first.contains(BUILDING), first);
        String second = run(copy);
        assertFalse(second.contains(BUILDING), second);
        // Built from sources that are no git checkout (as from a source tarball): the commit is unknown.
        assertTrue(second.matches("pcapdiag [0-9][^ ]* \\(commit unknown\\)\n"), second);
    }

    private static String run(Path project) throws Exception {
        Process p = new ProcessBuilder(project.resolve("scripts/pcapdiag").toString(), "--version")
                .directory(project.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "scripts/pcapdiag --version did not finish");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    /**
     * A file or a directory and all under it, each with its time of last change (Maven's jar compares them) and its
     * permissions; symbolic links left out (a runtime's links to its JDK, LauncherRuntimeTest).
     */
    static void copyTree(Path from, Path to) throws IOException {
        List<Path> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isSymbolicLink(p)) {
                    continue;
                }
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                    dirs.add(p);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        // Last, deepest first: creating their entries changed them.
        for (int i = dirs.size() - 1; i >= 0; i--) {
            Path d = dirs.get(i);
            Files.setLastModifiedTime(to.resolve(from.relativize(d).toString()), Files.getLastModifiedTime(d));
        }
    }
}
