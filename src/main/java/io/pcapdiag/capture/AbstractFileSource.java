package io.pcapdiag.capture;

import java.io.IOException;
import java.util.function.Consumer;

/** What the pcap and pcapng readers share: the input window, the reused frame, problem reporting. */
abstract class AbstractFileSource implements FrameSource {
    /** libpcap's limit for most link types (MAXIMUM_SNAPLEN); a larger record length is corruption. */
    static final int MAX_RECORD = 262_144;
    /** Problems beyond this many per capture are counted, not printed. */
    private static final int MAX_PROBLEM_LINES = 20;

    final Capture capture;
    final ByteInput in;
    final Frame frame = new Frame();
    final ReadStats stats = new ReadStats();
    /** Null until {@link #onProblem}: problems are then counted, not said. */
    private Consumer<CaptureException> problems;
    private int problemLines;

    AbstractFileSource(Capture capture, ByteInput in) {
        this.capture = capture;
        this.in = in;
        frame.capture = capture;
    }

    @Override
    public ReadStats stats() {
        stats.bytes = in.offset();
        return stats;
    }

    @Override
    public void onProblem(Consumer<CaptureException> sink) {
        this.problems = sink;
    }

    /** Reports a recoverable problem; after {@value #MAX_PROBLEM_LINES} lines they are only counted. */
    void problem(long offset, String message) {
        problemLines++;
        if (problems == null) {
            return;
        }
        if (problemLines <= MAX_PROBLEM_LINES) {
            problems.accept(new CorruptCaptureException(capture.name(), offset, message));
        } else if (problemLines == MAX_PROBLEM_LINES + 1) {
            problems.accept(new CorruptCaptureException(capture.name(), offset,
                    "more problems follow; they are counted in the summary, not printed"));
        }
    }

    CorruptCaptureException corrupt(long offset, String message) {
        return new CorruptCaptureException(capture.name(), offset, message);
    }

    /** The input ended inside a structure that started at {@code start}: count it and stop. */
    CorruptCaptureException cutOff(long start, String what, long need) throws IOException {
        long have = in.available();
        stats.skippedRecords++;
        in.drain();
        return corrupt(start, what + " cut off: needs " + need + " bytes, the file ends after " + have);
    }

    CaptureException io(IOException e) {
        if (gzipFault(e)) {
            return new CaptureException(capture.name(), in.offset(), gzipCut(e) + "; every packet before it was read", e);
        }
        return new CaptureException(capture.name(), in.offset(), "read failed: " + e.getMessage(), e);
    }

    /** Only the gzip stream throws these. */
    static boolean gzipFault(IOException e) {
        return e instanceof java.util.zip.ZipException || e instanceof java.io.EOFException;
    }

    /** What a gzip stream's fault says; the offset of its line is in the decompressed capture. */
    static String gzipCut(IOException e) {
        return "the gzip data is cut or corrupt here (" + (e.getMessage() == null ? "it ends early" : e.getMessage())
                + "; offset in the decompressed capture)";
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
