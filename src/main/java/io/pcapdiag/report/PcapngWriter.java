package io.pcapdiag.report;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Writes pcapng (draft-ietf-opsawg-pcapng): one Section Header Block, Interface Description Blocks
 * with a name and nanosecond timestamps, Enhanced Packet Blocks with a comment. Little-endian, as
 * dumpcap writes it on x86.
 */
final class PcapngWriter implements AutoCloseable {
    private static final int SHB = 0x0A0D0D0A;
    private static final int IDB = 0x00000001;
    private static final int EPB = 0x00000006;
    private static final int OPT_END = 0;
    private static final int OPT_COMMENT = 1;
    private static final int IF_NAME = 2;
    private static final int IF_DESCRIPTION = 3;
    private static final int IF_TSRESOL = 9;
    private static final int SHB_USERAPPL = 4;

    private final OutputStream out;
    private int interfaces;

    /** Starts a section: {@code comment} says what the file is. */
    PcapngWriter(OutputStream out, String comment, String application) throws IOException {
        this.out = out;
        Block b = new Block(SHB);
        b.buf.putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1L);
        b.option(OPT_COMMENT, comment.getBytes(StandardCharsets.UTF_8));
        b.option(SHB_USERAPPL, application.getBytes(StandardCharsets.UTF_8));
        b.end();
        write(b);
    }

    /** Declares an interface; returns its id for {@link #packet}. Timestamps are in nanoseconds. */
    int iface(int linkType, String name, String description) throws IOException {
        Block b = new Block(IDB);
        b.buf.putShort((short) linkType).putShort((short) 0).putInt(0);
        if (name != null) {
            b.option(IF_NAME, name.getBytes(StandardCharsets.UTF_8));
        }
        if (description != null) {
            b.option(IF_DESCRIPTION, description.getBytes(StandardCharsets.UTF_8));
        }
        b.option(IF_TSRESOL, new byte[] {9});
        b.end();
        write(b);
        return interfaces++;
    }

    void packet(int iface, long nanos, byte[] data, int origLen, String comment) throws IOException {
        Block b = new Block(EPB);
        b.buf.putInt(iface).putInt((int) (nanos >>> 32)).putInt((int) nanos).putInt(data.length).putInt(origLen);
        b.bytesPadded(data);
        b.option(OPT_COMMENT, comment.getBytes(StandardCharsets.UTF_8));
        b.end();
        write(b);
    }

    private void write(Block b) throws IOException {
        out.write(b.finish());
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /** A block being built: type, total length, body, total length again. */
    private static final class Block {
        private final int type;
        private ByteBuffer buf = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);

        Block(int type) {
            this.type = type;
        }

        private void ensure(int n) {
            if (buf.remaining() < n) {
                ByteBuffer bigger = ByteBuffer.allocate(Math.max(buf.capacity() * 2, buf.position() + n + 64))
                        .order(ByteOrder.LITTLE_ENDIAN);
                buf.flip();
                bigger.put(buf);
                buf = bigger;
            }
        }

        void bytesPadded(byte[] b) {
            ensure(b.length + 3);
            buf.put(b);
            for (int i = b.length; i % 4 != 0; i++) {
                buf.put((byte) 0);
            }
        }

        void option(int code, byte[] value) {
            ensure(4 + value.length + 3);
            buf.putShort((short) code).putShort((short) value.length);
            bytesPadded(value);
        }

        void end() {
            ensure(4);
            buf.putShort((short) OPT_END).putShort((short) 0);
        }

        byte[] finish() {
            int body = buf.position();
            ByteBuffer b = ByteBuffer.allocate(12 + body).order(ByteOrder.LITTLE_ENDIAN);
            b.putInt(type).putInt(12 + body);
            b.put(buf.array(), 0, body);
            b.putInt(12 + body);
            return b.array();
        }
    }
}
