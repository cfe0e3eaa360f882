package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.report.JsonSchemas;
import io.pcapdiag.testing.SchemaCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files, as tcpdump's TESTLIST and Zeek's btest baselines do it: the real CLI runs in-process over
 * every capture in captures/ and its text and JSON reports must equal the files beside the capture.
 * Regenerate with {@code scripts/test --regenerate} (a diff of a golden is reviewed like code).
 */
class GoldenTest {
    private static final boolean REGENERATE = Boolean.getBoolean("pcapdiag.regenerate");

    static List<String> captures() throws IOException {
        return Captures.names();
    }

    @Test
    void thereAreRegressionCaptures() throws IOException {
        assertFalse(captures().isEmpty(), "captures/ holds no capture");
    }

    /** A golden whose capture is gone would test nothing, silently: it fails the build instead. */
    @Test
    void everyGoldenHasItsCapture() throws IOException {
        List<String> orphans = Captures.goldens().stream()
                .filter(g -> !Files.exists(Captures.dir().resolve(g.replaceAll("\\.expected\\.(txt|json)$", ""))))
                .toList();
        assertEquals(List.of(), orphans, "golden files without their capture (delete them, or restore the capture)");
    }

    /**
     * The tool users get for their own captures is the one the project trusts: {@code pcapdiag check captures/}
     * compares every capture's findings with its JSON golden (the byte-exact comparisons below are stricter still).
     */
    @Test
    void pcapdiagCheckPassesOverTheCaptures() throws IOException {
        if (REGENERATE) {
            return;
        }
        CliRun r = CliRun.of("check", "captures");
        assertEquals("", r.err(), "stderr");
        assertEquals(ExitCodes.OK, r.code(), r.out());
        assertEquals(captures().size() + " passed, 0 failed", r.out().strip());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void textReportEqualsGolden(String name) throws IOException {
        CliRun r = CliRun.of(args(name, "--color", "never"));
        assertEquals("", r.err(), "stderr");
        assertEquals(ExitCodes.OK, r.code());
        compare(Captures.golden(name, "txt"), r.out());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void jsonReportEqualsGolden(String name) throws IOException {
        CliRun r = CliRun.of(args(name, "--format", "json"));
        assertEquals("", r.err(), "stderr");
        assertEquals(ExitCodes.OK, r.code());
        compare(Captures.golden(name, "json"), r.out());
    }

    /** Every JSON golden is a report as the shipped schema describes it, every key of it described ({@link SchemaCheck}). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void jsonGoldenValidatesAgainstTheSchema(String name) throws IOException {
        Path golden = Captures.golden(name, "json");
        assertTrue(Files.exists(golden), golden + " is missing");
        assertEquals(List.of(), SchemaCheck.errors(JsonSchemas.Document.REPORT, Files.readString(golden, StandardCharsets.UTF_8)),
                golden.toString());
    }

    /** analyze, the given options, the capture directory's options ({@link Captures#options}), the capture. */
    private static String[] args(String name, String... options) throws IOException {
        List<String> a = new java.util.ArrayList<>(List.of("analyze"));
        a.addAll(List.of(options));
        a.addAll(Captures.options(name));
        a.add(Captures.arg(name));
        return a.toArray(String[]::new);
    }

    private static void compare(Path golden, String actual) throws IOException {
        if (REGENERATE) {
            Files.writeString(golden, actual, StandardCharsets.UTF_8);
            return;
        }
        assertTrue(Files.exists(golden), golden + " is missing: run scripts/test --regenerate and review the new file");
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), actual, "differs from " + golden);
    }
}
