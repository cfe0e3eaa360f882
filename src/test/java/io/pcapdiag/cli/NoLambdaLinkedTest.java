package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code analyze} without context links no lambda and no method reference: the first one a run links makes the JDK
 * spin and link its lambda machinery in the interpreter (start-up took 110 ms with the lambdas, 80-90 ms without;
 * PERFORMANCE.md), so the analysis and the three reports are written without them, and DateTimeFormatter and Formatter, which link their own,
 * are kept off the common path. One JVM analyses every scenario's {@code any.pcap} in text, json and jsonl, logging
 * the classes it loads; a lambda's class, or the JDK's LambdaMetafactory, in that log fails the test.
 */
class NoLambdaLinkedTest {
    private static final String[] FORMATS = {"text", "json", "jsonl"};

    @Test
    void analyzeLinksNoLambda() throws Exception {
        List<String> captures = new ArrayList<>();
        for (String name : Captures.names()) {
            if (name.endsWith("/any.pcap")) {
                captures.add(Captures.dir().resolve(name).toString());
            }
        }
        assertTrue(captures.size() >= 10, "scenarios with an any.pcap: " + captures);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:off", "-Xlog:class+load=info", "-cp", System.getProperty("java.class.path"), Driver.class.getName()));
        command.addAll(captures);
        Path err = Files.createTempFile("no-lambda", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectError(err.toFile()).start();
            String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            String said = Files.readString(err);
            assertEquals(0, p.exitValue(), said);
            assertEquals(captures.size() * FORMATS.length, said.lines().filter(l -> l.startsWith("analysed ")).count(), said);
            // What the runs load, so that a run that failed early cannot pass for one without lambdas.
            for (String loaded : List.of("io.pcapdiag.report.TextReporter", "io.pcapdiag.report.JsonWriter",
                    "io.pcapdiag.report.JsonLinesReporter", "io.pcapdiag.diagnosis.Diagnose", "io.pcapdiag.causes.Causes")) {
                assertTrue(log.contains(" " + loaded + " "), loaded + " not loaded");
            }
            List<String> lambdas = log.lines().filter(l -> l.contains("$$Lambda") || l.contains("LambdaMetafactory")).toList();
            assertEquals(List.of(), lambdas);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    /** Analyses each capture in each format in this JVM; says each run on stderr, and exits 1 on a run that fails. */
    public static final class Driver {
        public static void main(String[] captures) {
            PrintWriter nowhere = new PrintWriter(Writer.nullWriter());
            for (String capture : captures) {
                for (String format : FORMATS) {
                    int code = Main.run(new String[] {"analyze", "--format", format, capture}, nowhere, nowhere);
                    System.err.println((code == ExitCodes.OK ? "analysed " : "failed ") + code + " " + format + " " + capture);
                    if (code != ExitCodes.OK) {
                        System.exit(1);
                    }
                }
            }
        }
    }
}
