package io.pcapdiag.testing;

import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * A channel that hands out at most {@code chunk} bytes per read, as a pipe or a slow stdin does, and
 * counts the reads. Reading after close fails, so a reader that uses a closed input is caught.
 */
public final class TrickleChannel implements ReadableByteChannel {
    private final byte[] data;
    private final int chunk;
    private int pos;
    private boolean open = true;
    private int reads;

    public TrickleChannel(byte[] data, int chunk) {
        this.data = data;
        this.chunk = chunk;
    }

    @Override
    public int read(ByteBuffer dst) throws java.io.IOException {
        if (!open) {
            throw new java.nio.channels.ClosedChannelException();
        }
        reads++;
        if (pos == data.length) {
            return -1;
        }
        int n = Math.min(Math.min(chunk, dst.remaining()), data.length - pos);
        dst.put(data, pos, n);
        pos += n;
        return n;
    }

    public int reads() {
        return reads;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }
}
