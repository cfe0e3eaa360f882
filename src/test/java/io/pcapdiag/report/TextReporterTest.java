package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.diagnosis.Concern;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextReporterTest {
    /**
     * A report that fails part way (here a finding without its explanation, which only its block below the table reads)
     * prints the lines made before the failure: they reach standard output, not only the writer's buffer.
     */
    @Test
    void aReportThatFailsPartWayPrintsWhatWasMadeOfIt() {
        Analysis a = new Analysis(Analysis.Options.defaults());
        String capture = CaptureFilesOnDisk.projectDir().resolve("captures/hairpin-no-brnf/any.pcap").toString();
        a.read(List.of(new Capture(0, capture)), Reader.BUILTIN, line -> { });
        Report first = Report.of(a.finish(), Integer.MAX_VALUE, null);
        assertTrue(!first.diagnoses().isEmpty(), "a capture with findings");
        Diagnosis d = first.diagnoses().get(0);
        Diagnosis unexplained = new Diagnosis(d.finding(), d.client(), d.target(), d.responder(), d.causes(), d.evidence(),
                d.frames(), d.displayFilter(), d.decodeAs(), d.path(), d.lastSeen(), d.vanished(), null, d.citeCaptures(),
                d.informed());
        Report r = new Report(first.result(), List.of(d, unexplained), first.notListed(), first.listLimit(), null,
                first.attempts(), Concern.ALL, 1);
        Report whole2 = new Report(first.result(), List.of(d, d), first.notListed(), first.listLimit(), null,
                first.attempts(), Concern.ALL, 1);
        StringWriter whole = new StringWriter();
        new TextReporter(new PrintWriter(whole), false).report(whole2);
        String made = whole.toString().substring(0, whole.toString().indexOf(System.lineSeparator() + System.lineSeparator(),
                whole.toString().indexOf("  Fixes:")));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintWriter out = new PrintWriter(bytes, false, StandardCharsets.UTF_8);
        assertThrows(NullPointerException.class, () -> new TextReporter(out, false).report(r));
        assertTrue(bytes.toString(StandardCharsets.UTF_8).startsWith(made), "the lines before the failure");
    }
}
