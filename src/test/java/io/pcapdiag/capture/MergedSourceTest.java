package io.pcapdiag.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Frames;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Several captures as one stream in time order; one that fails, however it fails, costs only itself. */
class MergedSourceTest {
    /** A source of frames at the given times; with {@code failAt} >= 0 it throws instead of the frame at that index. */
    private static FrameSource source(Capture c, long[] times, int failAt, RuntimeException failure) {
        return new FrameSource() {
            private int i;
            private final ReadStats stats = new ReadStats();

            @Override
            public Frame next() {
                if (i == failAt) {
                    i++;
                    throw failure;
                }
                if (i >= times.length) {
                    return null;
                }
                Frame f = Frames.frame(1, new byte[14], times[i], null);
                f.capture = c;
                f.number = ++i;
                stats.bytes += 30;
                return f;
            }

            @Override
            public ReadStats stats() {
                return stats;
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    void framesComeInTimeOrderAndAReaderBugCostsOnlyItsCapture() {
        Capture a = new Capture(0, "a.pcap");
        Capture b = new Capture(1, "b.pcap");
        List<String> said = new ArrayList<>();
        List<String> ended = new ArrayList<>();
        MergedSource m = new MergedSource(List.of(a, b), c -> c == a
                ? source(c, new long[] {10, 30, 50}, -1, null)
                : source(c, new long[] {20, 20, 40, 60}, 2, new NegativeArraySizeException("-12")),
                new MergedSource.Listener() {
                    @Override
                    public void opened(Capture c) {
                    }

                    @Override
                    public void problem(Capture c, CaptureException e) {
                        said.add(e.oneLine());
                    }

                    @Override
                    public void ended(Capture c, ReadStats stats) {
                        ended.add(c.name());
                    }
                });
        List<String> order = new ArrayList<>();
        for (Frame f = m.next(); f != null; f = m.next()) {
            order.add(f.capture.name() + "@" + f.nanos + "#" + f.number);
        }
        assertEquals(List.of("a.pcap@10#1", "b.pcap@20#1", "b.pcap@20#2", "a.pcap@30#2", "a.pcap@50#3"), order);
        assertEquals(1, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("b.pcap: offset 60: the reader failed (java.lang.NegativeArraySizeException: -12)"),
                said.get(0));
        assertEquals(List.of("b.pcap", "a.pcap"), ended);
    }

    @Test
    void aStagesOwnFailurePassesThroughInsteadOfEndingTheCapture() {
        Capture a = new Capture(0, "a.pcap");
        List<String> said = new ArrayList<>();
        MergedSource m = new MergedSource(List.of(a), c -> source(c, new long[] {10, 20, 30}, -1, null),
                new MergedSource.Listener() {
                    @Override
                    public void opened(Capture c) {
                    }

                    @Override
                    public void problem(Capture c, CaptureException e) {
                        said.add(e.oneLine());
                    }

                    @Override
                    public void ended(Capture c, ReadStats stats) {
                    }
                });
        IllegalStateException bug = new IllegalStateException("the tracker's bug");
        FrameFilter failing = f -> {
            if (f.nanos == 20) {
                throw new FrameFilter.Failure(bug);
            }
            return false;
        };
        assertEquals(10, m.next(failing).nanos);
        FrameFilter.Failure thrown = assertThrows(FrameFilter.Failure.class, () -> m.next(failing));
        assertSame(bug, thrown.getCause());
        assertEquals(List.of(), said, "not said as the capture's problem");
        assertEquals(30, m.next(failing).nanos, "the capture goes on");
    }
}
