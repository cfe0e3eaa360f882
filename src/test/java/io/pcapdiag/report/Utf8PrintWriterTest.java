package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.analysis.Reader;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.rules.Pattern;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Standard output as Main makes it ({@link Utf8PrintWriter}): the JSON reports write its bytes through Jackson's byte
 * generator, every other writer (the tests', a file's) takes characters. The two must print the same report, byte for
 * byte, in order with what the writer printed before and after, and a failed write must show in
 * {@code checkError()} as a {@code PrintWriter}'s own does.
 */
class Utf8PrintWriterTest {
    /** Quotes, a backslash, control characters, Latin-1, a character beyond it and one beyond the BMP (a pair). */
    private static final String AWKWARD = "naïve \"quoted\" back\\slash\ttab\u0001 € \uD83D\uDE00 end";
    /** A high surrogate alone: both writers put a question mark for it. */
    private static final String LONE = "lone \uD800 surrogate";

    private static List<Report> reports() throws IOException {
        List<Path> files = CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir().resolve("captures"));
        assertFalse(files.isEmpty(), "no regression captures");
        List<Report> out = new ArrayList<>();
        for (Path p : files) {
            for (String label : new String[] {null, AWKWARD, LONE}) {
                Analysis a = new Analysis(Analysis.Options.defaults());
                a.read(List.of(new Capture(0, p.toString(), label)), Reader.BUILTIN, line -> { });
                out.add(Report.of(a.finish(), Integer.MAX_VALUE, null));
            }
        }
        return out;
    }

    /**
     * What {@code print} writes, onto a writer that encodes its characters (a file's, or standard output as it was) and
     * onto standard output's bytes, with text around it: the same bytes.
     */
    private static void same(String what, Consumer<PrintWriter> print) {
        ByteArrayOutputStream encoded = new ByteArrayOutputStream();
        PrintWriter w = new PrintWriter(new OutputStreamWriter(encoded, StandardCharsets.UTF_8));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Utf8PrintWriter u = new Utf8PrintWriter(bytes);
        for (PrintWriter out : new PrintWriter[] {w, u}) {
            out.print("before: " + AWKWARD + "\n");
            print.accept(out);
            out.print("after: " + AWKWARD);
            out.flush();
        }
        assertFalse(u.checkError(), what);
        assertEquals(encoded.toString(StandardCharsets.UTF_8), bytes.toString(StandardCharsets.UTF_8), what);
        assertArrayEquals(encoded.toByteArray(), bytes.toByteArray(), what);
    }

    @Test
    void theJsonReportsAreTheSameBytesThroughEither() throws IOException {
        List<Report> reports = reports();
        int findings = 0;
        for (Report r : reports) {
            String what = r.result().captures().get(0).capture().toString();
            same("json " + what, out -> new JsonReporter(out).report(r));
            same("jsonl " + what, out -> new JsonLinesReporter(out, null).report(r));
            same("jsonl with a node " + what, out -> new JsonLinesReporter(out, "node-" + AWKWARD).report(r));
            // live: a line per finding, each flushed
            same("jsonl live lines " + what, out -> {
                JsonLinesReporter lines = new JsonLinesReporter(out, "node-1");
                for (Diagnosis d : r.diagnoses()) {
                    lines.finding(d, Pattern.NO_RESPONSE, 1_700_000_000_000_000_000L);
                    out.print("between\n");
                }
            });
            findings += r.diagnoses().size();
        }
        assertTrue(findings > 40, findings + " findings written");
    }

    /**
     * The text report is written a page at a time ({@code TextReporter}'s 64 Ki characters, onto the bytes as UTF-8): the
     * captures' reports, each alone and all through one reporter; one report whose findings are every capture's, over
     * several pages; the live lines and summaries. A lone surrogate goes through both as the writer's encoder has it.
     */
    @Test
    void theTextReportIsTheSameBytesThroughEither() throws IOException {
        List<Report> reports = reports();
        List<Diagnosis> all = new ArrayList<>();
        for (Report r : reports) {
            same("text " + r.result().captures().get(0).capture(), out -> new TextReporter(out, false).report(r));
            same("text in colour " + r.result().captures().get(0).capture(), out -> new TextReporter(out, true).report(r));
            all.addAll(r.diagnoses());
        }
        same("text, every report through one reporter", out -> {
            TextReporter text = new TextReporter(out, false);
            for (Report r : reports) {
                text.report(r);
                if (!r.diagnoses().isEmpty()) {
                    text.finding(r.diagnoses().get(0), Pattern.NO_RESPONSE, 0);
                }
                out.print("between \uD800 lone\n");
            }
        });
        Report first = reports.get(0);
        List<Diagnosis> many = new ArrayList<>();
        while (many.size() < 400) {
            many.addAll(all);
        }
        Report large = new Report(first.result(), many, first.notListed(), first.listLimit(), null, first.attempts());
        StringWriter chars = new StringWriter();
        new TextReporter(new PrintWriter(chars), false).report(large);
        assertTrue(chars.toString().length() > 5 * 65_536, chars.toString().length() + " characters: not several pages");
        same("text over several pages", out -> new TextReporter(out, false).report(large));
    }

    /**
     * A report that fails part way (here a finding the list holds as null) prints the lines made before the failure, as
     * a writer printed each line before: the page is written out on the way out too.
     */
    @Test
    void aTextReportThatFailsPartWayPrintsWhatWasMadeOfIt() throws IOException {
        Report first = reports().stream().filter(r -> !r.diagnoses().isEmpty()).findFirst().orElseThrow();
        List<Diagnosis> broken = new ArrayList<>(first.diagnoses());
        broken.add(null);
        Report r = new Report(first.result(), broken, first.notListed(), first.listLimit(), null, first.attempts());
        StringWriter whole = new StringWriter();
        new TextReporter(new PrintWriter(whole), false).report(first);
        String made = whole.toString().substring(0, whole.toString().indexOf(System.lineSeparator() + System.lineSeparator(),
                whole.toString().lastIndexOf("  Fixes:")));
        same("text failing part way", out -> {
            NullPointerException e = assertThrows(NullPointerException.class, () -> new TextReporter(out, false).report(r));
            out.print("failed: " + e.getClass().getSimpleName() + "\n");
        });
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Utf8PrintWriter u = new Utf8PrintWriter(bytes);
        assertThrows(NullPointerException.class, () -> new TextReporter(u, false).report(r));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith(made), "the lines before the failure");
    }

    /** A stream that fails from its {@code n}th call on (a write, or a flush unless told not to), like a full disk. */
    private static final class FailingAfter extends OutputStream {
        private int calls;
        private final int n;
        private boolean flushes = true;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        FailingAfter(int n) {
            this.n = n;
        }

        FailingAfter flushFine() {
            flushes = false;
            return this;
        }

        private void call() throws IOException {
            if (++calls >= n) {
                throw new IOException("No space left on device");
            }
        }

        @Override
        public void write(int b) throws IOException {
            call();
            kept.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            call();
            kept.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            if (flushes) {
                call();
            }
        }
    }

    /** The bytes' own failures mark the writer: here nothing is written through its characters after them. */
    @Test
    void aFailedWriteOrFlushOfTheBytesMarksTheWriter() throws IOException {
        Utf8PrintWriter u = new Utf8PrintWriter(new FailingAfter(1).flushFine());
        u.bytes().write(new byte[] {'{', '}'}, 0, 2);
        assertTrue(u.checkError(), "write(byte[], int, int)");
        u = new Utf8PrintWriter(new FailingAfter(1).flushFine());
        u.bytes().write('{');
        assertTrue(u.checkError(), "write(int)");
        u = new Utf8PrintWriter(new FailingAfter(2)); // the first call, bytes()'s flush of the characters, goes through
        OutputStream b = u.bytes();
        b.close(); // flushes, and fails
        assertTrue(u.checkError(), "close (a flush)");
        u = new Utf8PrintWriter(new FailingAfter(Integer.MAX_VALUE));
        u.bytes().write('{');
        assertFalse(u.checkError(), "a stream that works");
    }

    @Test
    void aFailedWriteOfTheBytesShowsInCheckErrorAndIsNotThrown() throws IOException {
        Report r = reports().get(0);
        for (int n = 1; n <= 4; n++) {
            FailingAfter stream = new FailingAfter(n);
            Utf8PrintWriter u = new Utf8PrintWriter(stream);
            new JsonReporter(u).report(r);
            assertTrue(u.checkError(), "failing from call " + n);
        }
        FailingAfter never = new FailingAfter(Integer.MAX_VALUE);
        Utf8PrintWriter u = new Utf8PrintWriter(never);
        new JsonReporter(u).report(r);
        assertFalse(u.checkError());
        StringWriter chars = new StringWriter();
        new JsonReporter(new PrintWriter(chars)).report(r);
        assertEquals(chars.toString(), never.kept.toString(StandardCharsets.UTF_8));
    }
}
