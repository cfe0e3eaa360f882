package io.pcapdiag.capture;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Opens a capture with the built-in reader: recognises pcap, pcapng and gzip-compressed either (as
 * Wireshark does) by their first bytes, from a file or from stdin ({@code -}).
 */
public final class CaptureFiles {
    /**
     * Read window while the {@link ReadBudget} lasts. Small enough that what a read brings can stay in the core's L2
     * cache through the kernel's copy, the JDK's copy out of its direct buffer and the parse, which a 4 MiB window
     * cannot (about a sixth of node-1x's run; docs/performance.md). Past the budget (about 1,000 files at once with the
     * launcher's heap) windows are smaller still, so memory does not grow with the number of files.
     */
    private static final int WINDOW = 128 << 10;
    /** A window for small inputs: a 700-byte capture does not need 128 KiB. */
    private static final int SMALLEST_WINDOW = 64 << 10;

    private CaptureFiles() {
    }

    public static FrameSource open(Capture capture) throws CaptureException {
        ReadableByteChannel channel;
        long size = -1;
        String name = capture.name();
        if ("-".equals(name)) {
            if (stdinClosed()) {
                throw new CaptureException(name, -1, "standard input is closed (<&-): there is no capture to read");
            }
            channel = Channels.newChannel(System.in);
        } else {
            Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                throw new CaptureException(name, -1, "is a directory, not a capture file");
            }
            try {
                FileChannel fc = FileChannel.open(path, StandardOpenOption.READ);
                // A FIFO, <(...), /dev/stdin or a character device has no size: streamed as tcpdump reads it.
                size = Files.isRegularFile(path) ? fc.size() : -1;
                channel = fc;
            } catch (NoSuchFileException e) {
                throw new CaptureException(name, -1, "no such file");
            } catch (AccessDeniedException e) {
                throw new CaptureException(name, -1, "permission denied");
            } catch (IOException e) {
                throw new CaptureException(name, -1, "cannot open: " + e.getMessage(), e);
            }
            if (size == 0) {
                close(channel);
                throw new CorruptCaptureException(name, 0, "empty file: no pcap or pcapng header");
            }
        }
        return open(capture, channel, size);
    }

    /** Opens a capture read from {@code channel} (standard input, a test, the fuzzer); {@code size} -1 when unknown. */
    static FrameSource open(Capture capture, ReadableByteChannel channel, long size) throws CaptureException {
        ByteInput in = ByteInput.budgeted(channel, window(size));
        try {
            return detect(capture, in, true, size);
        } catch (CaptureException e) {
            close(in);
            throw e;
        }
    }

    /**
     * Standard input was closed when pcapdiag started ({@code analyze - <&-}): the JVM's first file then takes
     * descriptor 0, and would be read as the capture. Whoever started pcapdiag may say so ({@code
     * PCAPDIAG_STDIN_CLOSED=1}); otherwise descriptor 0 pointing into the Java runtime tells it.
     */
    private static boolean stdinClosed() {
        if ("1".equals(System.getenv("PCAPDIAG_STDIN_CLOSED"))) {
            return true;
        }
        try {
            return Files.readSymbolicLink(Path.of("/proc/self/fd/0")).startsWith(Path.of(System.getProperty("java.home")));
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false; // no /proc: nothing to tell by
        }
    }

    /** The read window for an input of {@code size} bytes (-1: unknown): no larger than the input needs. */
    private static int window(long size) {
        return size < 0 ? WINDOW : (int) Math.max(SMALLEST_WINDOW, Math.min(WINDOW, size));
    }

    /** @param size the input's size, the unit of {@link ReadStats#bytes}, or -1 when unknown */
    private static FrameSource detect(Capture capture, ByteInput in, boolean allowGzip, long size) throws CaptureException {
        try {
            if (!in.ensure(4)) {
                throw new CorruptCaptureException(capture.name(), 0,
                        in.available() == 0 ? "empty input: no pcap or pcapng header"
                                : "truncated header: " + in.available() + " bytes, not a pcap or pcapng file");
            }
        } catch (IOException e) {
            if (!allowGzip && AbstractFileSource.gzipFault(e)) {
                // Inflating the first bytes failed: the deflate data is corrupt from its start.
                throw new CaptureException(capture.name(), 0, AbstractFileSource.gzipCut(e), e);
            }
            throw new CaptureException(capture.name(), 0, "read failed: " + e.getMessage(), e);
        }
        int be = Bytes.i32be(in.buf, in.pos);
        int le = Integer.reverseBytes(be);
        if (be == PcapngReader.SHB) {
            return sized(new PcapngReader(capture, in), size);
        }
        for (int magic : new int[] {PcapReader.MAGIC_US, PcapReader.MAGIC_NS, PcapReader.MAGIC_KUZNETZOV}) {
            if (be == magic || le == magic) {
                return sized(new PcapReader(capture, in), size);
            }
        }
        if (allowGzip && (be >>> 16) == 0x1f8b) {
            // The reader counts decompressed bytes, whose total the compressed file's size does not tell.
            // Captures compress 3-10x: a window of 16 times the compressed size is seldom refilled.
            ByteInput inflated = ByteInput.budgeted(Channels.newChannel(gunzip(in, capture)),
                    window(size < 0 ? -1 : size * 16));
            try {
                return detect(capture, inflated, false, -1);
            } catch (CaptureException e) {
                close(inflated); // gives back both windows: closing the gzip stream closes the one under it
                throw e;
            }
        }
        throw new CorruptCaptureException(capture.name(), 0, String.format(Locale.ROOT,
                "unknown file format (magic 0x%08x): expected pcap (a1b2c3d4, a1b23c4d) or pcapng (0a0d0d0a)", be));
    }

    private static FrameSource sized(FrameSource source, long size) {
        source.stats().sizeHint = size;
        return source;
    }

    /** A gzip stream over what the window holds and the rest of the channel. */
    private static InputStream gunzip(ByteInput in, Capture capture) throws CaptureException {
        InputStream raw = new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (in.available() == 0 && !in.ensure(1)) {
                    return -1;
                }
                int n = Math.min(len, in.available());
                System.arraycopy(in.buf, in.pos, b, off, n);
                in.pos += n;
                return n;
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
        try {
            return new GZIPInputStream(raw, 1 << 16);
        } catch (java.io.EOFException e) {
            // GZIPInputStream's own EOFException has no message.
            throw new CorruptCaptureException(capture.name(), 0, "gzip header cut off: the file ends inside it");
        } catch (IOException e) {
            throw new CorruptCaptureException(capture.name(), 0, "gzip header unreadable: " + e.getMessage());
        }
    }

    private static void close(java.io.Closeable channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing was read; the open error already tells the user what went wrong.
        }
    }
}
