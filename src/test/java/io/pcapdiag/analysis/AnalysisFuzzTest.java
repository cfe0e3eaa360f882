package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.report.JsonLinesReporter;
import io.pcapdiag.report.JsonReporter;
import io.pcapdiag.report.JsonSchemas;
import io.pcapdiag.report.TextReporter;
import io.pcapdiag.testing.SchemaCheck;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/**
 * Fuzzes the decoder, the tracker, the rules and the reporters together: a few dozen frames of any link type, any
 * bytes and any time steps (backwards too) must decode without an exception (the analysis's per-packet safety net
 * would hide one: the decoder is called bare first), track, and render as text, JSON and JSON Lines valid against the
 * shipped schemas; the attempt counts add up.
 * scripts/fuzz runs it under Jazzer; the test suite replays the committed corpus (AnalysisFuzzTestInputs).
 */
class AnalysisFuzzTest {
    /** The link types pcapdiag decodes, and two it does not. */
    private static final int[] LINK_TYPES = {1, 113, 276, 101, 12, 14, 228, 229, 0, 108, 147, 9999};
    private static final long T0 = 1_700_000_000_000_000_000L;

    @FuzzTest(maxDuration = "30m", maxExecutions = 7_000_000)
    void packets(FuzzedDataProvider in) {
        Analysis a = new Analysis(new Analysis.Options(64, 32, List.of(), 8));
        a.setPipelined(false);
        Capture capture = new Capture(0, "fuzz.pcap");
        CaptureSummary summary = a.register(capture);
        Decoder decoder = new Decoder();
        PacketView view = new PacketView();
        int n = in.consumeInt(1, 48);
        long t = T0;
        for (int i = 0; i < n && in.remainingBytes() > 0; i++) {
            Frame f = new Frame();
            f.linkType = in.pickValue(LINK_TYPES);
            t += in.consumeLong(-2_000_000_000L, 40_000_000_000L);
            f.nanos = t;
            byte[] b = in.consumeBytes(in.consumeInt(0, 160));
            f.data = b;
            f.offset = 0;
            f.capLen = b.length;
            f.origLen = b.length + in.consumeInt(0, 3);
            f.number = i + 1;
            f.fileOffset = 24 + 200L * i;
            f.capture = capture;
            decoder.decode(f, view); // throws on a decoder bug
            a.feed(f, summary);
        }
        Result r = a.finish();
        assertNull(summary.weirds().get(CaptureSummary.DECODER_FAILURE));
        long total = r.outcomes().values().stream().mapToLong(Long::longValue).sum();
        assertEquals(r.tracker().attempts(), total, "every attempt has one outcome");
        Report report = Report.of(r, 10, null);
        StringWriter text = new StringWriter();
        new TextReporter(new PrintWriter(text), false).report(report);
        StringWriter json = new StringWriter();
        new JsonReporter(json).report(report);
        assertTrue(text.toString().endsWith("\n") && json.toString().startsWith("{"));
        assertEquals(List.of(), SchemaCheck.errors(JsonSchemas.Document.REPORT, json.toString()), json.toString());
        StringWriter lines = new StringWriter();
        new JsonLinesReporter(new PrintWriter(lines), null).report(report);
        assertEquals(List.of(), SchemaCheck.lineErrors(lines.toString()), lines.toString());
    }
}
