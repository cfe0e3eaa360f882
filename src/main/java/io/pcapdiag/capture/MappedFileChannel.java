package io.pcapdiag.capture;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads a regular file through memory mappings of {@value #CHUNK_MB} MiB at a time. A plain
 * {@code FileChannel.read} into a heap buffer copies every byte twice (kernel to a temporary direct
 * buffer, then to the heap); from a mapping it is copied once, and the kernel maps file pages in
 * batches on the first touch.
 */
final class MappedFileChannel implements ReadableByteChannel {
    private static final int CHUNK_MB = 64;
    private static final long CHUNK = (long) CHUNK_MB << 20;

    private final FileChannel file;
    private final long size;
    private final long chunkSize;
    private MappedByteBuffer chunk;
    private long chunkStart;
    private long position;

    MappedFileChannel(FileChannel file) throws IOException {
        this(file, CHUNK);
    }

    /** With another mapping size: tests use a tiny one so records straddle mappings. */
    MappedFileChannel(FileChannel file, long chunkSize) throws IOException {
        this.file = file;
        this.size = file.size();
        this.chunkSize = chunkSize;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (position >= size) {
            return -1;
        }
        if (chunk == null || position >= chunkStart + chunk.capacity()) {
            chunkStart = position;
            chunk = file.map(FileChannel.MapMode.READ_ONLY, chunkStart, Math.min(chunkSize, size - chunkStart));
        }
        int at = (int) (position - chunkStart);
        int n = Math.min(dst.remaining(), chunk.capacity() - at);
        dst.put(chunk.slice(at, n));
        position += n;
        return n;
    }

    @Override
    public boolean isOpen() {
        return file.isOpen();
    }

    @Override
    public void close() throws IOException {
        chunk = null;
        file.close();
    }
}
