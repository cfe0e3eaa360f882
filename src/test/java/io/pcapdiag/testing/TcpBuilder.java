package io.pcapdiag.testing;

/**
 * A TCP segment (RFC 9293 header layout). The checksum is left 0 here; the IP builders fill it in
 * with their pseudo-header.
 */
public final class TcpBuilder {
    public static final int FIN = 0x01;
    public static final int SYN = 0x02;
    public static final int RST = 0x04;
    public static final int PSH = 0x08;
    public static final int ACK = 0x10;
    public static final int URG = 0x20;
    public static final int ECE = 0x40;
    public static final int CWR = 0x80;

    private final int srcPort;
    private final int dstPort;
    private int seq;
    private int ack;
    private int flags;
    private int window = 64240;
    private int urgent;
    private byte[] options = new byte[0];
    private byte[] payload = new byte[0];
    private Integer dataOffsetWords;

    private TcpBuilder(int srcPort, int dstPort) {
        this.srcPort = srcPort;
        this.dstPort = dstPort;
    }

    public static TcpBuilder tcp(int srcPort, int dstPort) {
        return new TcpBuilder(srcPort, dstPort);
    }

    public TcpBuilder seq(int v) {
        seq = v;
        return this;
    }

    public TcpBuilder ack(int v) {
        ack = v;
        return this;
    }

    public TcpBuilder flags(int v) {
        flags = v;
        return this;
    }

    public TcpBuilder window(int v) {
        window = v;
        return this;
    }

    public TcpBuilder urgent(int v) {
        urgent = v;
        return this;
    }

    /** Raw option bytes; padded with end-of-option-list bytes to a multiple of 4. */
    public TcpBuilder options(byte[] v) {
        options = v.clone();
        return this;
    }

    public TcpBuilder payload(byte[] v) {
        payload = v.clone();
        return this;
    }

    /** Writes this value into the data-offset nibble instead of the real header length (malformed input). */
    public TcpBuilder dataOffsetWords(int words) {
        dataOffsetWords = words;
        return this;
    }

    /** MSS option (kind 2). */
    public static byte[] mss(int v) {
        return new byte[] {2, 4, (byte) (v >>> 8), (byte) v};
    }

    /** The options a Linux SYN carries: MSS, SACK permitted, timestamps, NOP, window scale. */
    public static byte[] linuxSynOptions() {
        return Buf.hex("020405b4 0402 080a 00bc614e 00000000 01 030307");
    }

    public byte[] build() {
        Buf opt = new Buf().bytes(options).pad(4);
        byte[] o = opt.toByteArray();
        int words = dataOffsetWords != null ? dataOffsetWords : (20 + o.length) / 4;
        return new Buf()
                .u16(srcPort).u16(dstPort)
                .u32(seq & 0xffffffffL).u32(ack & 0xffffffffL)
                .u8(words << 4).u8(flags)
                .u16(window).u16(0).u16(urgent)
                .bytes(o).bytes(payload)
                .toByteArray();
    }
}
