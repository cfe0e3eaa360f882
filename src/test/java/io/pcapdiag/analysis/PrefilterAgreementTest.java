package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.decode.Prefilter;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The prefilter may only skip what the full decoder would call a plain TCP segment (no SYN, no RST, no
 * anomaly), or a packet of no interest without anomaly: checked on every frame of every capture in captures/ and the
 * third-party corpus, including the truncated and malformed ones.
 */
class PrefilterAgreementTest {

    @Test
    void prefilterSkipsOnlyPlainFrames() throws IOException {
        List<Path> files = new ArrayList<>(CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir().resolve("captures")));
        files.addAll(CaptureFilesOnDisk.under(CaptureFilesOnDisk.corpusDir()));
        Assumptions.assumeFalse(files.isEmpty(), "no captures to check");
        Decoder decoder = new Decoder();
        PacketView v = new PacketView();
        long skipped = 0;
        long others = 0;
        long frames = 0;
        List<String> disagreements = new ArrayList<>();
        for (Path p : files) {
            try (FrameSource src = CaptureFiles.open(new Capture(0, p.toString()))) {
                for (Frame f = next(src); f != null; f = next(src)) {
                    frames++;
                    int pre = Prefilter.classify(f);
                    if (pre == Prefilter.DECODE) {
                        continue;
                    }
                    skipped++;
                    PacketView.Kind kind = decoder.decode(f, v);
                    boolean plain = pre == Prefilter.PLAIN_SEGMENT
                            ? kind == PacketView.Kind.TCP && v.weird == null && !v.has(PacketView.SYN) && !v.has(PacketView.RST)
                            : kind == PacketView.Kind.OTHER && v.weird == null;
                    others += pre == Prefilter.PLAIN_OTHER ? 1 : 0;
                    if (!plain && disagreements.size() < 20) {
                        disagreements.add(p + " frame " + f.number + ": prefilter skipped a " + kind + " weird=" + v.weird
                                + " flags=" + v.flags + " as " + (pre == Prefilter.PLAIN_SEGMENT ? "a plain segment" : "other"));
                    }
                }
            } catch (CaptureException e) {
                // Unreadable inputs are the corpus sweep's business; nothing to compare here.
            }
        }
        System.out.println("prefilter: " + skipped + " of " + frames + " frames skipped the full decode, " + others + " as other");
        assertEquals(List.of(), disagreements);
        assertTrue(skipped - others > 0, "the prefilter never took a segment: the comparison proved nothing");
        // captures/ has no UDP but the overlay's; the corpus (always there in CI) has DNS and more.
        if (Files.isDirectory(CaptureFilesOnDisk.corpusDir())) {
            assertTrue(others > 0, "the prefilter never took another packet: the comparison proved nothing for them");
        }
    }

    private static Frame next(FrameSource src) {
        try {
            return src.next();
        } catch (CaptureException e) {
            return null;
        }
    }
}
