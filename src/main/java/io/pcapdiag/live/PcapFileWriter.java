package io.pcapdiag.live;

import io.pcapdiag.report.IoReasons;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code --write}'s file: classic pcap with nanosecond timestamps (magic {@code a1b23c4d}, as tcpdump
 * {@code --time-stamp-precision=nano} writes), the captured and the original length of every record, written
 * through one buffer: one {@code write(2)} per {@link #BUFFER_BYTES}, not one JNA structure and call per packet as
 * pcap4j's dumper did (about 11 us a packet here).
 *
 * <p>pcapdiag runs as root on nodes, so the file is opened the safe way: a symbolic link at the path is refused
 * (O_NOFOLLOW), the file is created mode {@link #MODE} and never truncated unless {@code force}. With
 * {@code rotateBytes} &gt; 0 the file is closed once it holds that many bytes and the next one opened beside it,
 * {@code live.eth0.pcap}, {@code live.eth0.1.pcap}, {@code live.eth0.2.pcap}..., like tcpdump {@code -C}.
 */
public final class PcapFileWriter implements AutoCloseable {
    static final int BUFFER_BYTES = 1 << 20;
    /** rw------- : packets are private to whoever ran the capture. */
    public static final String MODE = "rw-------";
    private static final int HEADER_BYTES = 24;
    private static final int RECORD_HEADER_BYTES = 16;

    private final Path first;
    private final int linkType;
    private final int snaplen;
    private final boolean force;
    private final long rotateBytes;
    private final ByteBuffer buf = ByteBuffer.allocate(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private final List<Path> files = new ArrayList<>();
    private FileChannel channel;
    private long fileBytes;

    /**
     * Opens the first file.
     *
     * @throws IOException with a message naming the file: it exists (and not {@code force}), it is a symbolic
     *                     link, or it cannot be created
     */
    public PcapFileWriter(Path file, int linkType, int snaplen, boolean force, long rotateBytes) throws IOException {
        this.first = file;
        this.linkType = linkType;
        this.snaplen = snaplen;
        this.force = force;
        this.rotateBytes = rotateBytes;
        open(file);
    }

    /** The files written so far, in order. */
    public List<Path> files() {
        return List.copyOf(files);
    }

    private void open(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new IOException(file + " is a symbolic link: refusing to write through it");
        }
        Set<OpenOption> opts = force
                ? Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                        LinkOption.NOFOLLOW_LINKS)
                : Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS);
        Set<PosixFilePermission> mode = PosixFilePermissions.fromString(MODE);
        try {
            channel = FileChannel.open(file, opts, PosixFilePermissions.asFileAttribute(mode));
        } catch (FileAlreadyExistsException e) {
            throw new IOException(file + " exists: not overwriting it (--force to overwrite)", e);
        } catch (UnsupportedOperationException e) {
            channel = FileChannel.open(file, opts); // a file system without POSIX modes
        } catch (IOException e) {
            String why = e.getMessage() != null && e.getMessage().contains("symbolic") ? "is a symbolic link"
                    : IoReasons.of(e);
            throw new IOException(file + ": cannot create it: " + why, e);
        }
        if (force) {
            try {
                Files.setPosixFilePermissions(file, mode); // an existing file keeps its mode otherwise
            } catch (UnsupportedOperationException e) {
                // no POSIX modes here
            }
        }
        files.add(file);
        fileBytes = 0;
        buf.putInt(0xa1b23c4d).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(snaplen).putInt(linkType);
        fileBytes += HEADER_BYTES;
    }

    /** Appends one record; {@code data} is what was captured of {@code origLen} bytes. */
    public void write(long nanos, byte[] data, int origLen) throws IOException {
        int len = data.length;
        if (rotateBytes > 0 && fileBytes + RECORD_HEADER_BYTES + len > rotateBytes && fileBytes > HEADER_BYTES) {
            rotate();
        }
        if (buf.remaining() < RECORD_HEADER_BYTES + len) {
            drain();
        }
        buf.putInt((int) Math.floorDiv(nanos, 1_000_000_000L)).putInt((int) Math.floorMod(nanos, 1_000_000_000L))
                .putInt(len).putInt(Math.max(origLen, len));
        if (len <= buf.remaining()) {
            buf.put(data);
        } else {
            drain();
            channel.write(ByteBuffer.wrap(data)); // bigger than the buffer: straight through
        }
        fileBytes += RECORD_HEADER_BYTES + len;
    }

    private void rotate() throws IOException {
        drain();
        channel.close();
        String name = first.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String next = dot > 0 ? name.substring(0, dot) + "." + files.size() + name.substring(dot) : name + "." + files.size();
        open(first.resolveSibling(next));
    }

    /** Writes what is buffered (the file can then be read up to here). */
    public void flush() throws IOException {
        drain();
    }

    private void drain() throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            channel.write(buf);
        }
        buf.clear();
    }

    @Override
    public void close() throws IOException {
        if (channel != null && channel.isOpen()) {
            try {
                drain();
            } finally {
                channel.close();
            }
        }
    }
}
