package io.pcapdiag.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The regression captures under captures/ and their golden files beside them. */
final class Captures {
    private Captures() {
    }

    static Path dir() {
        return CliRun.projectDir().resolve("captures");
    }

    /** Capture file names (not paths), sorted. */
    static List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".pcap") || n.endsWith(".pcapng"))
                    .sorted()
                    .toList();
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
