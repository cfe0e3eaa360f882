package io.pcapdiag.capture;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;

/**
 * A refillable window over a channel: streaming, so memory stays constant whatever the file size,
 * and the same code reads regular files, pipes and decompressed streams. Bytes before {@link #pos}
 * may be discarded by the next {@link #ensure}.
 */
final class ByteInput implements Closeable {
    private final ReadableByteChannel channel;
    byte[] buf;
    private ByteBuffer view;
    /** Next unread byte in {@link #buf}. */
    int pos;
    /** End of valid bytes in {@link #buf}. */
    int lim;
    /** File offset of {@code buf[0]}. */
    private long base;
    private boolean eof;
    /** A read failure not yet raised: the bytes before it are read first. */
    private IOException failure;

    /** What this window took from the {@link ReadBudget}; given back once, on close. */
    private long granted;

    ByteInput(ReadableByteChannel channel, int capacity) {
        this.channel = channel;
        this.buf = new byte[capacity];
        this.view = ByteBuffer.wrap(buf);
    }

    /** A window of {@code wanted} bytes while the read budget lasts, {@link ReadBudget#SMALL} after that. */
    static ByteInput budgeted(ReadableByteChannel channel, int wanted) {
        int size = ReadBudget.grant(wanted, ReadBudget.SMALL);
        ByteInput in = new ByteInput(channel, size);
        in.granted = size;
        return in;
    }

    /** The window's size now (it grows for a record larger than it). */
    int capacity() {
        return buf.length;
    }

    /** File offset of the next unread byte. */
    long offset() {
        return base + pos;
    }

    int available() {
        return lim - pos;
    }

    /**
     * Makes {@code n} bytes available from {@link #pos}.
     *
     * @return false when the input ends first; {@link #available()} then tells how many there are
     */
    boolean ensure(int n) throws IOException {
        if (lim - pos >= n) {
            return true;
        }
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            base += pos;
            lim -= pos;
            pos = 0;
        }
        if (n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(n, buf.length * 2));
            view = ByteBuffer.wrap(buf);
        }
        while (lim < n && !eof) {
            view.limit(buf.length).position(lim);
            int r;
            try {
                r = channel.read(view);
            } catch (IOException e) {
                // A corrupt or cut gzip stream fails in the middle of a fill: what was decompressed before it is
                // kept and read first; the failure is raised where the good bytes end, with that offset.
                lim = view.position();
                failure = e;
                eof = true;
                break;
            }
            if (r < 0) {
                eof = true;
            } else {
                lim += r;
            }
        }
        if (lim - pos < n && failure != null) {
            IOException e = failure;
            failure = null;
            throw e;
        }
        return lim - pos >= n;
    }

    /** Skips {@code n} bytes, reading through them if they are not buffered; returns how many were skipped. */
    long skip(long n) throws IOException {
        long done = 0;
        while (done < n) {
            if (pos == lim && !ensure(1)) {
                break;
            }
            int step = (int) Math.min(n - done, lim - pos);
            pos += step;
            done += step;
        }
        return done;
    }

    /** Reads to the end, returning how many bytes were left. */
    long drain() throws IOException {
        return skip(Long.MAX_VALUE);
    }

    @Override
    public void close() throws IOException {
        ReadBudget.release(granted);
        granted = 0;
        channel.close();
    }
}
