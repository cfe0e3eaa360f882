package io.pcapdiag.testing;

import java.nio.ByteOrder;

/**
 * Classic libpcap files (draft-ietf-opsawg-pcap): microsecond magic a1b2c3d4, nanosecond a1b23c4d,
 * and Kuznetzov's patched a1b2cd34 with 24-byte records, in either byte order.
 */
public final class PcapWriter {
    public static final int MAGIC_US = 0xa1b2c3d4;
    public static final int MAGIC_NS = 0xa1b23c4d;
    public static final int MAGIC_KUZNETZOV = 0xa1b2cd34;
    public static final int FILE_HEADER = 24;

    private final int magic;
    private final ByteOrder order;
    private int snaplen = 262_144;
    private int linkType = LinkBuilder.LINKTYPE_ETHERNET;
    private final Buf records;

    private PcapWriter(int magic, ByteOrder order) {
        this.magic = magic;
        this.order = order;
        this.records = new Buf(order);
    }

    public static PcapWriter micro(ByteOrder order) {
        return new PcapWriter(MAGIC_US, order);
    }

    public static PcapWriter nano(ByteOrder order) {
        return new PcapWriter(MAGIC_NS, order);
    }

    public static PcapWriter kuznetzov(ByteOrder order) {
        return new PcapWriter(MAGIC_KUZNETZOV, order);
    }

    public static PcapWriter of(int magic, ByteOrder order) {
        return new PcapWriter(magic, order);
    }

    public PcapWriter snaplen(int v) {
        snaplen = v;
        return this;
    }

    /** The whole 32-bit link-type field (upper bits may carry FCS information). */
    public PcapWriter linkType(int v) {
        linkType = v;
        return this;
    }

    public int recordHeaderLength() {
        return magic == MAGIC_KUZNETZOV ? 24 : 16;
    }

    /** File offset the next record will start at. */
    public int offset() {
        return FILE_HEADER + records.size();
    }

    /** A record stamped {@code nanos} (floored to the file's resolution) with the whole packet captured. */
    public PcapWriter packet(long nanos, byte[] data) {
        return packet(nanos, data, data.length);
    }

    public PcapWriter packet(long nanos, byte[] data, int origLen) {
        long sec = Math.floorDiv(nanos, 1_000_000_000L);
        long ns = Math.floorMod(nanos, 1_000_000_000L);
        return record(sec, magic == MAGIC_NS ? ns : ns / 1000, data.length, origLen, data);
    }

    /** A record with every header field given: for corrupt captures. */
    public PcapWriter record(long sec, long frac, long capLen, long origLen, byte[] data) {
        records.u32(sec).u32(frac).u32(capLen).u32(origLen);
        if (magic == MAGIC_KUZNETZOV) {
            records.u32(2).u16(0x0800).u8(0).u8(0); // ifindex, protocol, packet type, padding
        }
        records.bytes(data);
        return this;
    }

    /** Raw bytes appended as they are. */
    public PcapWriter raw(byte[] b) {
        records.bytes(b);
        return this;
    }

    public byte[] header() {
        return new Buf(order).u32(magic & 0xffffffffL).u16(2).u16(4).u32(0).u32(0)
                .u32(snaplen & 0xffffffffL).u32(linkType & 0xffffffffL).toByteArray();
    }

    public byte[] toByteArray() {
        return Buf.concat(header(), records.toByteArray());
    }
}
