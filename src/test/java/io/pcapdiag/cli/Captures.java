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

    /** The analyze options for a capture: its directory's {@code pcapdiag.check}, as {@code pcapdiag check} reads it. */
    static List<String> options(String name) throws IOException {
        Path rel = Path.of(name).getParent();
        try {
            return CheckCommand.optionsFile(Main.commandLine().getSubcommands().get("analyze").getCommandSpec())
                    .read(Path.of("captures").resolve(rel == null ? Path.of("") : rel));
        } catch (io.pcapdiag.check.OptionsFile.Invalid e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** The path as a user would type it from the project directory. */
    static String arg(String name) {
        return "captures/" + name;
    }

    static Path golden(String name, String kind) {
        return dir().resolve(name + ".expected." + kind);
    }
}
