package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.track.Attempt;
import io.pcapdiag.track.Outcome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each capture's attempts by outcome (a capture line's counts, {@code captures[].attempts} in JSON) are the attempts the
 * tracker decided whose first SYN that capture holds, as the decided-attempt listener sees them, on one thread and on two.
 */
class CaptureOutcomesTest {

    @ParameterizedTest(name = "pipelined {0}")
    @ValueSource(booleans = {true, false})
    void eachCapturesOutcomesAreTheAttemptsItsFirstSynsStarted(boolean pipelined) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String scenario : List.of("closed-port", "vip-local-reject", "delayed-connect", "healthy-direct")) {
            files.add(CaptureFilesOnDisk.projectDir().resolve("captures").resolve(scenario).resolve("any.pcap"));
        }
        Map<Integer, Map<Outcome, Long>> decided = new TreeMap<>();
        Analysis a = new Analysis(Analysis.Options.defaults());
        a.setPipelined(pipelined);
        a.onDecided(att -> count(decided, att));
        ReadFiles.read(a, files);
        Result r = a.finish();

        Map<Integer, Map<Outcome, Long>> reported = new TreeMap<>();
        for (CaptureSummary s : r.captures()) {
            reported.put(s.capture().index(), s.outcomes());
        }
        for (int i = 0; i < files.size(); i++) {
            decided.computeIfAbsent(i, k -> zeros());
        }
        assertEquals(decided, reported);
        assertEquals(files.size(), reported.size());
        long withAttempts = reported.values().stream().filter(m -> total(m) > 0).count();
        assertTrue(withAttempts >= 3, "the captures' attempts fall in several captures: " + reported);
        assertEquals(a.outcomes(), sum(reported), "the captures' counts add up to the run's");
    }

    /**
     * Live feeds packets and lets capture time run on in silence, and makes a result now and then: each has the counts
     * of its time. Here the packets of a capture whose four attempts span 1.1 s, then the clock moved on in steps of
     * 100 ms, a result made at each.
     */
    @Test
    void aResultMadeAgainLaterHasTheCountsOfThen() throws IOException, CaptureException {
        Path file = CaptureFilesOnDisk.projectDir().resolve("captures/delayed-connect/any.pcap");
        Analysis a = new Analysis(Analysis.Options.defaults());
        Capture cap = new Capture(0, file.toString());
        CaptureSummary summary = a.register(cap);
        long last = Long.MIN_VALUE;
        try (FrameSource src = Reader.BUILTIN.open(cap)) {
            for (Frame f = src.next(); f != null; f = src.next()) {
                a.feed(f, summary);
                last = Math.max(last, f.nanos);
            }
        }
        List<Long> totals = new ArrayList<>();
        for (long step = 0; step <= 10_000_000_000L; step += 100_000_000L) {
            a.advanceClock(last + step);
            Map<Outcome, Long> now = a.result().captures().get(0).outcomes();
            assertEquals(a.outcomes(), now, "after " + step / 1_000_000 + " ms");
            totals.add(total(now));
        }
        assertTrue(totals.stream().distinct().count() >= 3, "attempts decided between results: " + totals);
        assertEquals(a.outcomes(), a.finish().captures().get(0).outcomes());
    }

    private static long total(Map<Outcome, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    private static void count(Map<Integer, Map<Outcome, Long>> decided, Attempt att) {
        decided.computeIfAbsent(att.synCapture().index(), k -> zeros()).merge(att.outcome(), 1L, Long::sum);
    }

    private static Map<Outcome, Long> zeros() {
        return CaptureSummary.counts(new long[Outcome.values().length]);
    }

    private static Map<Outcome, Long> sum(Map<Integer, Map<Outcome, Long>> byCapture) {
        Map<Outcome, Long> total = zeros();
        for (Map<Outcome, Long> m : byCapture.values()) {
            m.forEach((o, n) -> total.merge(o, n, Long::sum));
        }
        return total;
    }
}
