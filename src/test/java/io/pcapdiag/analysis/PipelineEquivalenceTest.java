package io.pcapdiag.analysis;

import org.junit.jupiter.api.Tag;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.report.JsonReporter;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two-thread offline analysis must give exactly the report of the single-threaded one: over every
 * regression capture, every corpus capture, and all regression captures merged into one analysis.
 */
@Tag("slow")
class PipelineEquivalenceTest {

    @Test
    void pipelinedAndSequentialReportsAreIdentical() throws IOException {
        List<Path> files = new ArrayList<>(CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir().resolve("captures")));
        assertFalse(files.isEmpty(), "no regression captures");
        List<Path> all = new ArrayList<>(files);
        all.addAll(CaptureFilesOnDisk.under(CaptureFilesOnDisk.corpusDir()));
        List<String> differ = new ArrayList<>();
        for (Path p : all) {
            if (!report(List.of(p), true).equals(report(List.of(p), false))) {
                differ.add(p.toString());
            }
        }
        assertEquals(List.of(), differ);
        assertEquals(report(files, false), report(files, true), "all regression captures merged");
    }

    private static String report(List<Path> files, boolean pipelined) {
        Analysis a = ReadFiles.read(files, pipelined);
        StringWriter out = new StringWriter();
        new JsonReporter(out).report(Report.of(a.finish(), Integer.MAX_VALUE, null));
        return out.toString();
    }
}
