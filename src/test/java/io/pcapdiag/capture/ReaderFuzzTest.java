package io.pcapdiag.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Fuzzes the built-in readers (pcap, pcapng, gzip of either, time ordering): whatever the bytes, a capture ends in
 * frames, counted problems and at most one failure, each a CaptureException of one line naming the capture; never
 * another exception; read with a filter, the same frames, problems and end. scripts/fuzz runs it under Jazzer; the test suite replays the committed corpus
 * (ReaderFuzzTestInputs) as regression tests. Isolated: it holds the read budget that every open capture of the JVM
 * shares to what each input gives back.
 */
@Isolated
class ReaderFuzzTest {
    private static final String NAME = "fuzz.pcap";

    private static void oneLine(CaptureException e) {
        String line = e.oneLine();
        assertTrue(line.startsWith(NAME + ": ") && line.indexOf('\n') < 0 && line.indexOf('\r') < 0, line);
    }

    @FuzzTest(maxDuration = "30m", maxExecutions = 4_000_000)
    void readers(byte[] data) throws IOException {
        long budget = ReadBudget.left();
        FrameSource s;
        try {
            s = CaptureFiles.open(new Capture(0, NAME), Channels.newChannel(new ByteArrayInputStream(data)), data.length);
        } catch (CaptureException e) {
            oneLine(e);
            assertEquals(budget, ReadBudget.left(), "a capture that did not open gives its windows back");
            return;
        }
        if (s.interleavesInterfaces()) {
            s = new TimeOrderedSource(s);
        }
        s.onProblem(ReaderFuzzTest::oneLine);
        long frames = 0;
        long last = Long.MIN_VALUE;
        boolean ordered = s instanceof TimeOrderedSource;
        try {
            Frame f;
            while ((f = s.next()) != null) {
                frames++;
                assertTrue(f.capLen >= 0 && f.offset >= 0 && f.offset + f.capLen <= f.data.length, "frame within its buffer");
                assertEquals(NAME, f.capture.name());
                if (ordered && data.length < (128 << 10)) {
                    assertTrue(f.nanos >= last, "a small pcapng capture comes out in time order");
                }
                last = f.nanos;
            }
        } catch (CaptureException e) {
            oneLine(e);
        } finally {
            s.close();
        }
        assertEquals(frames, s.stats().frames, "every frame handed out is counted, and only those");
        assertEquals(budget, ReadBudget.left(), "every window is given back");
    }
}
