package io.pcapdiag.testing;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * pcapng (draft-ietf-opsawg-pcapng): sections in either byte order, Interface Description Blocks with
 * options, Enhanced / Simple / obsolete Packet Blocks, and arbitrary blocks for unknown or corrupt input.
 */
public final class PcapngWriter {
    public static final int SHB = 0x0A0D0D0A;
    public static final int IDB = 1;
    public static final int PB = 2;
    public static final int SPB = 3;
    public static final int NRB = 4;
    public static final int ISB = 5;
    public static final int EPB = 6;
    public static final int DSB = 0x0000000A;
    public static final int CUSTOM = 0x00000BAD;

    public static final int OPT_COMMENT = 1;
    public static final int IF_NAME = 2;
    public static final int IF_TSRESOL = 9;
    public static final int IF_TSOFFSET = 14;

    /** An option: code and value (padded to 4 when written). */
    public record Option(int code, byte[] value) {
    }

    private final Buf out = new Buf();
    private ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    private int interfaces;

    public static Option ifName(String name) {
        return new Option(IF_NAME, name.getBytes(StandardCharsets.UTF_8));
    }

    /** if_tsresol as its raw byte: 9 is 10^-9, 0x80|n is 2^-n. */
    public static Option tsresol(int raw) {
        return new Option(IF_TSRESOL, new byte[] {(byte) raw});
    }

    public Option tsoffset(long seconds) {
        return new Option(IF_TSOFFSET, new Buf(order).u64(seconds).toByteArray());
    }

    public static Option comment(String text) {
        return new Option(OPT_COMMENT, text.getBytes(StandardCharsets.UTF_8));
    }

    /** File offset the next block will start at. */
    public int offset() {
        return out.size();
    }

    public ByteOrder order() {
        return order;
    }

    /** Starts a section (Section Header Block, version 1.0, unknown section length) in {@code byteOrder}. */
    public PcapngWriter section(ByteOrder byteOrder, Option... options) {
        order = byteOrder;
        interfaces = 0;
        Buf body = new Buf(order).u32(0x1A2B3C4D).u16(1).u16(0).u64(-1L).bytes(options(options));
        return block(SHB, body.toByteArray());
    }

    /** An Interface Description Block; its id is the count of IDBs before it in the section. */
    public PcapngWriter idb(int linkType, int snaplen, Option... options) {
        interfaces++;
        Buf body = new Buf(order).u16(linkType).u16(0).u32(snaplen & 0xffffffffL).bytes(options(options));
        return block(IDB, body.toByteArray());
    }

    public int interfaceCount() {
        return interfaces;
    }

    /** Enhanced Packet Block with the whole packet captured; {@code ts} in the interface's units. */
    public PcapngWriter epb(int ifId, long ts, byte[] data) {
        return epb(ifId, ts, data, data.length);
    }

    public PcapngWriter epb(int ifId, long ts, byte[] data, int origLen, Option... options) {
        Buf body = new Buf(order).u32(ifId & 0xffffffffL).u32(ts >>> 32).u32(ts).u32(data.length).u32(origLen & 0xffffffffL)
                .bytes(data).pad(4).bytes(options(options));
        return block(EPB, body.toByteArray());
    }

    /** An EPB whose captured-length field says {@code capLen} whatever the data is (corrupt input). */
    public PcapngWriter epbClaiming(int ifId, long ts, long capLen, byte[] data) {
        Buf body = new Buf(order).u32(ifId & 0xffffffffL).u32(ts >>> 32).u32(ts).u32(capLen).u32(data.length)
                .bytes(data).pad(4);
        return block(EPB, body.toByteArray());
    }

    /** Simple Packet Block: interface 0, no timestamp; data is what was captured of {@code origLen}. */
    public PcapngWriter spb(byte[] data, int origLen) {
        Buf body = new Buf(order).u32(origLen & 0xffffffffL).bytes(data).pad(4);
        return block(SPB, body.toByteArray());
    }

    /** The obsolete Packet Block (type 2): 16-bit interface id and drops count. */
    public PcapngWriter pb(int ifId, long ts, byte[] data) {
        Buf body = new Buf(order).u16(ifId).u16(0).u32(ts >>> 32).u32(ts).u32(data.length).u32(data.length)
                .bytes(data).pad(4);
        return block(PB, body.toByteArray());
    }

    /** A well-formed block of any type; the body is padded to 4. */
    public PcapngWriter block(int type, byte[] body) {
        byte[] b = new Buf().bytes(body).pad(4).toByteArray();
        long len = 12 + b.length;
        return rawBlock(type, len, b, len);
    }

    /** A block with the given leading and trailing lengths, whatever its body (corrupt input). */
    public PcapngWriter rawBlock(int type, long totalLength, byte[] body, long trailingLength) {
        out.order(order).u32(type & 0xffffffffL).u32(totalLength).bytes(body).u32(trailingLength);
        return this;
    }

    /** Raw bytes appended as they are. */
    public PcapngWriter raw(byte[] b) {
        out.bytes(b);
        return this;
    }

    private byte[] options(Option... options) {
        if (options.length == 0) {
            return new byte[0];
        }
        Buf b = new Buf(order);
        for (Option o : options) {
            b.u16(o.code()).u16(o.value().length).bytes(o.value()).pad(4);
        }
        return b.u16(0).u16(0).toByteArray();
    }

    public byte[] toByteArray() {
        return out.toByteArray();
    }
}
