package io.pcapdiag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The regression captures, {@code captures/<scenario>/<view>.pcap}, and the golden files beside them. A
 * directory may hold a {@code pcapdiag.check} file: the analyze options its captures are analysed with,
 * one per line, paths relative to the directory (e.g. {@code captures/<scenario>/context/}: the scenario's
 * captures, linked, analysed with its cluster snapshot and node facts).
 */
final class Captures {
    private Captures() {
    }

    static Path dir() {
        return CliRun.projectDir().resolve("captures");
    }

    /** Whether a file name is a capture (what the lab records), not a golden or a context file. */
    static boolean isCapture(String fileName) {
        return fileName.endsWith(".pcap") || fileName.endsWith(".pcapng");
    }

    /** Captures as {@code scenario/view.ext}, sorted. */
    static List<String> names() throws IOException {
        try (Stream<Path> s = Files.walk(dir(), 3)) {
            return s.filter(p -> isCapture(p.getFileName().toString()))
                    .map(p -> dir().relativize(p).toString())
                    .sorted()
                    .toList();
        }
    }

    /** Golden files ({@code *.expected.txt}, {@code *.expected.json}) as {@code scenario/view.ext.expected.kind}, sorted. */
    static List<String> goldens() throws IOException {
        try (Stream<Path> s = Files.walk(dir(), 3)) {
            return s.filter(p -> p.getFileName().toString().matches(".*\\.expected\\.(txt|json)"))
                    .map(p -> dir().relativize(p).toString())
                    .sorted()
                    .toList();
        }
    }

    /** The options file of a directory. */
    static final String OPTIONS = "pcapdiag.check";
    /** Options whose value is a path: relative to the options file's directory. */
    private static final java.util.Set<String> PATH_OPTIONS = java.util.Set.of("--cluster", "--node-facts");

    /** The analyze options for a capture: its directory's {@link #OPTIONS} file, paths as a user would type them. */
    static List<String> options(String name) throws IOException {
        Path rel = Path.of(name).getParent();
        Path file = rel == null ? dir().resolve(OPTIONS) : dir().resolve(rel).resolve(OPTIONS);
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> out = new java.util.ArrayList<>();
        boolean path = false;
        for (String line : Files.readAllLines(file)) {
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            for (String token : t.split("\\s+")) {
                out.add(path ? "captures/" + Path.of(rel == null ? "" : rel.toString()).resolve(token).normalize() : token);
                path = PATH_OPTIONS.contains(token);
            }
        }
        return out;
    }

    /** The path as a user would type it from the project directory. */
    static String arg(String name) {
        return "captures/" + name;
    }

    static Path golden(String name, String kind) {
        return dir().resolve(name + ".expected." + kind);
    }
}
