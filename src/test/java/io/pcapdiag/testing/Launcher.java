package io.pcapdiag.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** Runs the real pcapdiag in a process of its own, from the classes under test (the lab and live tests). */
public final class Launcher {
    private Launcher() {
    }

    static Path projectDir() {
        return Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    }

    /**
     * The java command running pcapdiag from a private copy of this test's classes: a build in the same tree
     * (another developer's {@code mvn package}) must not swap classes under the running process.
     */
    public static List<String> java(Path dir) throws IOException {
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        List<String> cp = new ArrayList<>();
        Path classes = projectDir().resolve("target/classes");
        Path copy = dir.resolve("classes");
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
        cp.add(copy.toString());
        for (String e : testClassPath()) {
            if (e.endsWith(".jar")) {
                cp.add(e);
            }
        }
        return List.of(javaBin, "-XX:+UseSerialGC", "-cp", String.join(File.pathSeparator, cp));
    }

    /** The test class path, whether Surefire passes it directly or through a manifest-only jar. */
    public static List<String> testClassPath() throws IOException {
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


    /**
     * An executable {@code DIR/pcapdiag} that runs {@link #java}'s command with its arguments: what a script
     * (the lab's PDLAB_PCAPDIAG) can call like scripts/pcapdiag, without a build of its own.
     */
    public static Path script(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder("#!/bin/sh\nexec");
        for (String a : java(dir)) {
            sb.append(" '").append(a.replace("'", "'\\''")).append('\'');
        }
        sb.append(" io.pcapdiag.cli.Main \"$@\"\n");
        Path script = dir.resolve("pcapdiag");
        Files.writeString(script, sb.toString());
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
