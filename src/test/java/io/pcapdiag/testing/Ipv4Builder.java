package io.pcapdiag.testing;

/**
 * An IPv4 packet (RFC 791) with a correct header checksum, optional options, and fragment fields. A TCP
 * or ICMP payload of an unfragmented packet gets its checksum filled in too.
 */
public final class Ipv4Builder {
    public static final int PROTO_ICMP = 1;
    public static final int PROTO_TCP = 6;
    public static final int PROTO_UDP = 17;

    private final byte[] src;
    private final byte[] dst;
    private int ttl = 64;
    private int tos;
    private int id = 0x1234;
    private boolean dontFragment = true;
    private boolean moreFragments;
    private int fragmentOffset8;
    private byte[] options = new byte[0];
    private int protocol = PROTO_TCP;
    private byte[] payload = new byte[0];
    private Integer version;
    private Integer ihlWords;
    private Integer totalLength;
    private boolean transportChecksum = true;

    private Ipv4Builder(String src, String dst) {
        this.src = Addresses.v4(src);
        this.dst = Addresses.v4(dst);
    }

    public static Ipv4Builder ipv4(String src, String dst) {
        return new Ipv4Builder(src, dst);
    }

    public Ipv4Builder ttl(int v) {
        ttl = v;
        return this;
    }

    public Ipv4Builder tos(int v) {
        tos = v;
        return this;
    }

    public Ipv4Builder id(int v) {
        id = v;
        return this;
    }

    public Ipv4Builder dontFragment(boolean v) {
        dontFragment = v;
        return this;
    }

    /** Fragment offset in 8-byte units and the more-fragments flag. */
    public Ipv4Builder fragment(int offset8, boolean more) {
        fragmentOffset8 = offset8;
        moreFragments = more;
        dontFragment = false;
        return this;
    }

    /** Raw option bytes, padded with end-of-list to a multiple of 4. */
    public Ipv4Builder options(byte[] v) {
        options = v.clone();
        return this;
    }

    public Ipv4Builder payload(int proto, byte[] v) {
        protocol = proto;
        payload = v.clone();
        return this;
    }

    public Ipv4Builder tcp(TcpBuilder t) {
        return payload(PROTO_TCP, t.build());
    }

    public Ipv4Builder icmp(byte[] message) {
        return payload(PROTO_ICMP, message);
    }

    /** Version nibble override (malformed input). */
    public Ipv4Builder version(int v) {
        version = v;
        return this;
    }

    /** IHL override in 4-byte words (malformed input); the header bytes written stay as built. */
    public Ipv4Builder ihlWords(int v) {
        ihlWords = v;
        return this;
    }

    /** Total-length override, e.g. 0 as TSO super-packets carry it. */
    public Ipv4Builder totalLength(int v) {
        totalLength = v;
        return this;
    }

    public Ipv4Builder noTransportChecksum() {
        transportChecksum = false;
        return this;
    }

    /** Record-route option (type 7) with room for {@code slots} addresses, followed by a NOP. */
    public static byte[] recordRoute(int slots) {
        Buf b = new Buf().u8(7).u8(3 + 4 * slots).u8(4);
        b.zeros(4 * slots);
        return b.u8(1).toByteArray();
    }

    public byte[] build() {
        byte[] opt = new Buf().bytes(options).pad(4).toByteArray();
        int hl = 20 + opt.length;
        if (hl > 60) {
            throw new IllegalArgumentException("IPv4 options longer than 40 bytes");
        }
        byte[] body = payload.clone();
        boolean fragmented = moreFragments || fragmentOffset8 != 0;
        if (transportChecksum && !fragmented) {
            if (protocol == PROTO_TCP && body.length >= 20) {
                Buf pseudo = new Buf().bytes(src).bytes(dst).u8(0).u8(PROTO_TCP).u16(body.length);
                byte[] ph = pseudo.toByteArray();
                int s = Checksum.sum(ph, 0, ph.length, 0);
                Buf.put16(body, 16, 0);
                Buf.put16(body, 16, ~Checksum.sum(body, 0, body.length, s) & 0xffff);
            } else if (protocol == PROTO_ICMP && body.length >= 4) {
                Buf.put16(body, 2, 0);
                Buf.put16(body, 2, Checksum.checksum(body, 0, body.length));
            }
        }
        int frag = (dontFragment ? 0x4000 : 0) | (moreFragments ? 0x2000 : 0) | (fragmentOffset8 & 0x1fff);
        byte[] p = new Buf()
                .u8(((version != null ? version : 4) << 4) | (ihlWords != null ? ihlWords : hl / 4))
                .u8(tos)
                .u16(totalLength != null ? totalLength : hl + body.length)
                .u16(id).u16(frag)
                .u8(ttl).u8(protocol).u16(0)
                .bytes(src).bytes(dst)
                .bytes(opt).bytes(body)
                .toByteArray();
        Buf.put16(p, 10, Checksum.checksum(p, 0, hl));
        return p;
    }
}
