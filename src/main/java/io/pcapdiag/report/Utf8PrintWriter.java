package io.pcapdiag.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Standard output as the command line writes it: a {@code PrintWriter} in UTF-8 onto a byte stream, whose bytes the
 * JSON reports write themselves ({@link JsonReporter#generatorOn}): Jackson's byte generator encodes UTF-8 as it
 * writes, where a character generator copies each string into characters that the writer then encodes again, a
 * pass more over the bench trace's 5.6 MB of JSON (PERFORMANCE.md). A write that fails is kept as a
 * {@code PrintWriter} keeps its own, for {@link #checkError()}: a full disk or a closed pipe ends the run with exit
 * code 5 and one line, whichever of the two wrote.
 */
public final class Utf8PrintWriter extends PrintWriter {
    private final Bytes bytes;

    public Utf8PrintWriter(OutputStream out) {
        super(new OutputStreamWriter(out, StandardCharsets.UTF_8), false);
        this.bytes = new Bytes(out);
    }

    /** The byte stream, once the characters written before are in it; closing it flushes it and leaves it open. */
    OutputStream bytes() {
        flush();
        return bytes;
    }

    /**
     * Writes {@code s} as one array of UTF-8 bytes (the characters written before it first): for a page of the text
     * report, whose lines one by one went through the writer's encoder (PERFORMANCE.md). The same bytes as
     * {@code write(s)}, a lone surrogate included ({@code Utf8PrintWriterTest}).
     */
    public void writeUtf8(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        flush();
        bytes.write(b, 0, b.length);
    }

    private void failed() {
        setError();
    }

    /** Writes through to the stream; a failure marks the writer, as its own writes do, and is not thrown. */
    private final class Bytes extends OutputStream {
        private final OutputStream out;

        Bytes(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) {
            try {
                out.write(b);
            } catch (IOException e) {
                failed();
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                failed();
            }
        }

        @Override
        public void flush() {
            try {
                out.flush();
            } catch (IOException e) {
                failed();
            }
        }

        @Override
        public void close() {
            flush();
        }
    }
}
