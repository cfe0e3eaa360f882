package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.diagnosis.Report;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the JSON reports keep of awkward text (a capture's label here; a snapshot's names alike), and what they do when
 * standard output cannot be written.
 */
class JsonReporterTest {
    /** Quotes, a backslash, control characters, Latin-1, a character beyond it and one beyond the BMP (a pair). */
    private static final String AWKWARD = "naïve \"quoted\" back\\slash\ttab\u0001 € \uD83D\uDE00 end";
    /** A high surrogate alone, as a snapshot's JSON may hold one. */
    private static final String LONE = "lone \uD800 surrogate";

    private static Report report(String label) {
        Analysis a = new Analysis(Analysis.Options.defaults());
        String capture = CaptureFilesOnDisk.projectDir().resolve("captures/hairpin-no-brnf/any.pcap").toString();
        a.read(List.of(new Capture(0, capture, label)), Reader.BUILTIN, line -> { });
        return Report.of(a.finish(), Integer.MAX_VALUE, null);
    }

    /** What {@code print} writes onto standard output as Main makes it (UTF-8), as a string. */
    private static String written(Consumer<PrintWriter> print) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintWriter out = new PrintWriter(bytes, false, StandardCharsets.UTF_8);
        print.accept(out);
        out.flush();
        assertFalse(out.checkError());
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void everyCharacterIsKeptAndEverySurrogateEscaped() throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (String label : new String[] {AWKWARD, LONE}) {
            Report r = report(label);
            String document = written(out -> new JsonReporter(out).report(r));
            assertEquals(label, json.readTree(document).get("captures").get(0).get("label").asText());
            String lines = written(out -> new JsonLinesReporter(out, label).report(r));
            for (String line : lines.split(System.lineSeparator())) {
                JsonNode n = json.readTree(line);
                assertEquals(label, n.get("node").asText(), line);
                if (n.get("event").asText().equals("capture")) {
                    assertEquals(label, n.get("label").asText());
                }
            }
        }
        String document = written(out -> new JsonReporter(out).report(report(AWKWARD + LONE)));
        assertTrue(document.contains("\"label\" : \"naïve \\\"quoted\\\" back\\\\slash\\ttab\\u0001 € \\uD83D\\uDE00 end"
                + "lone \\uD800 surrogate\""), document);
    }

    /** A stream that fails from its {@code n}th call on, like a full disk. */
    private static final class FailingAfter extends OutputStream {
        private int calls;
        private final int n;

        FailingAfter(int n) {
            this.n = n;
        }

        private void call() throws IOException {
            if (++calls >= n) {
                throw new IOException("No space left on device");
            }
        }

        @Override
        public void write(int b) throws IOException {
            call();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            call();
        }

        @Override
        public void flush() throws IOException {
            call();
        }
    }

    private static Reporter reporter(String format, PrintWriter out) {
        return format.equals("json") ? new JsonReporter(out) : new JsonLinesReporter(out, null);
    }

    /** A failure at any of the stream's calls marks the writer ({@code checkError}: exit code 5) and is not thrown. */
    @ParameterizedTest
    @ValueSource(strings = {"json", "jsonl"})
    void aFailedWriteShowsInCheckErrorAndIsNotThrown(String format) {
        Report r = report(null);
        FailingAfter works = new FailingAfter(Integer.MAX_VALUE);
        PrintWriter out = new PrintWriter(works, false, StandardCharsets.UTF_8);
        reporter(format, out).report(r);
        assertFalse(out.checkError());
        assertTrue(works.calls > 0, "the report was written");
        for (int n = 1; n <= works.calls; n++) {
            PrintWriter failing = new PrintWriter(new FailingAfter(n), false, StandardCharsets.UTF_8);
            reporter(format, failing).report(r);
            assertTrue(failing.checkError(), "failing from call " + n + " of " + works.calls);
        }
    }
}
