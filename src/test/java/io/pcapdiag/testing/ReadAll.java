package io.pcapdiag.testing;

import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.ReadStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a source to its end, copying each frame (sources reuse theirs), collecting recoverable problems
 * and the exception that ended reading, if any.
 */
public final class ReadAll {
    /** A frame copied out of the source's reused one. */
    public record Copy(long number, long nanos, int linkType, String interfaceName, byte[] bytes, int origLen,
                       long fileOffset) {
        @Override
        public String toString() {
            return "#" + number + " t=" + nanos + " lt=" + linkType + " if=" + interfaceName + " cap=" + bytes.length
                    + " orig=" + origLen + " @" + fileOffset;
        }
    }

    public final List<Copy> frames = new ArrayList<>();
    public final List<CaptureException> problems = new ArrayList<>();
    public CaptureException failure;
    public ReadStats stats;

    private ReadAll() {
    }

    public static ReadAll of(FrameSource source) {
        ReadAll r = new ReadAll();
        source.onProblem(r.problems::add);
        try (source) {
            while (true) {
                Frame f;
                try {
                    f = source.next();
                } catch (CaptureException e) {
                    r.failure = e;
                    break;
                }
                if (f == null) {
                    break;
                }
                r.frames.add(new Copy(f.number, f.nanos, f.linkType, f.interfaceName,
                        Arrays.copyOfRange(f.data, f.offset, f.offset + f.capLen), f.origLen, f.fileOffset));
            }
            r.stats = source.stats();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return r;
    }

    public List<byte[]> payloads() {
        List<byte[]> l = new ArrayList<>();
        for (Copy c : frames) {
            l.add(c.bytes());
        }
        return l;
    }

    public List<Long> times() {
        List<Long> l = new ArrayList<>();
        for (Copy c : frames) {
            l.add(c.nanos());
        }
        return l;
    }

    /** All problem lines and the failure line, as users see them. */
    public List<String> lines() {
        List<String> l = new ArrayList<>();
        for (CaptureException p : problems) {
            l.add(p.oneLine());
        }
        if (failure != null) {
            l.add(failure.oneLine());
        }
        return l;
    }
}
