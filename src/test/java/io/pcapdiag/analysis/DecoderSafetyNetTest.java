package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.ReadStats;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Result;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A packet the decoder fails on (a bug: here a frame with no bytes at all) costs that packet, not the report:
 * it is counted as malformed under its own anomaly and said in one line with capture, offset and frame.
 */
class DecoderSafetyNetTest {
    @Test
    void aDecoderFailureIsCountedAndSaidAndTheRestIsAnalysed() throws Exception {
        String file = CaptureFilesOnDisk.projectDir().resolve("captures/closed-port/pod-eth0.pcap").toString();
        for (boolean pipelined : new boolean[] {false, true}) {
            Analysis a = new Analysis(Analysis.Options.defaults());
            a.setPipelined(pipelined);
            List<String> said = new ArrayList<>();
            a.read(List.of(new Capture(0, file)), c -> {
                    FrameSource real = CaptureFiles.open(c);
                    return new FrameSource() {
                        @Override
                        public Frame next() throws io.pcapdiag.capture.CaptureException {
                            Frame f = real.next();
                            if (f != null && f.number == 2) {
                                f.data = null; // the decoder dereferences it: a NullPointerException inside decode()
                            }
                            return f;
                        }

                        @Override
                        public ReadStats stats() {
                            return real.stats();
                        }

                        @Override
                        public void close() throws java.io.IOException {
                            real.close();
                        }
                    };
            }, said::add);
            Result r = a.finish();
            assertEquals(1, said.size(), said.toString());
            assertTrue(said.get(0).matches(".*pod-eth0.pcap: offset \\d+: frame 2 could not be decoded \\(java.lang."
                    + "NullPointerException.*\\); counted as malformed"), said.get(0));
            CaptureSummary s = r.captures().get(0);
            assertEquals(1, s.malformed());
            assertEquals(1L, s.weirds().get("decoder_failure"));
            assertEquals(4, s.packets(), "every packet counted");
            assertEquals(1, r.findings().size(), "the refusal is still found: its SYN is frame 3 on this view");
        }
    }
}
