package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.TimeOrderedSource;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Result;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Offline, the capture's source offers every frame to the pipeline's first stage in its read loop and hands out only
 * those that concern the tracker; live, {@link Analysis#feed} takes each frame through the same stage. Both must count
 * and decide alike: over every regression and corpus capture, a read counts what feeding every frame counts.
 */
class SourceStageTest {

    @Test
    void readingCountsWhatFeedingEveryFrameCounts() throws IOException {
        List<Path> all = new ArrayList<>(CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir().resolve("captures")));
        all.addAll(CaptureFilesOnDisk.under(CaptureFilesOnDisk.corpusDir()));
        assertFalse(all.isEmpty(), "no captures");
        List<String> differ = new ArrayList<>();
        for (Path p : all) {
            for (boolean pipelined : new boolean[] {false, true}) {
                String read = counts(ReadFiles.read(List.of(p), pipelined));
                String fed = counts(fed(p));
                if (!read.equals(fed)) {
                    differ.add(p + (pipelined ? " (pipelined)" : "") + ":\n  read " + read + "\n  fed  " + fed);
                }
            }
        }
        assertEquals(List.of(), differ);
    }

    /** Every frame of {@code p}'s plain source (in time order, as a read takes it), fed one by one. */
    private static Analysis fed(Path p) {
        Analysis a = new Analysis(Analysis.Options.defaults());
        Capture c = new Capture(0, p.toString());
        CaptureSummary s = a.register(c);
        try (FrameSource file = CaptureFiles.open(c);
                FrameSource src = file.interleavesInterfaces() ? new TimeOrderedSource(file) : file) {
            for (Frame f = src.next(); f != null; f = src.next()) {
                a.feed(f, s);
            }
        } catch (CaptureException | IOException e) {
            // the read stops here as well; what came before is counted
        }
        return a;
    }

    private static String counts(Analysis a) {
        Result r = a.finish();
        StringBuilder out = new StringBuilder();
        for (CaptureSummary s : r.captures()) {
            out.append("packets=").append(s.packets()).append(" tcp=").append(s.tcp())
                    .append(" icmpErrors=").append(s.icmpErrors()).append(" other=").append(s.other())
                    .append(" truncated=").append(s.truncated()).append(" malformed=").append(s.malformed())
                    .append(" first=").append(s.firstNanos()).append(" last=").append(s.lastNanos())
                    .append(" linkTypes=").append(s.linkTypes()).append(" weirds=").append(s.weirds())
                    .append(" outcomes=").append(s.outcomes());
        }
        return out.append(" all=").append(a.outcomes()).toString();
    }
}
