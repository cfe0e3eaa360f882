package io.pcapdiag.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * An IPv6 packet (RFC 8200) with a chain of extension headers: hop-by-hop, routing, fragment,
 * destination options, AH. The upper-layer checksum (TCP, ICMPv6) of an unfragmented packet is filled in.
 */
public final class Ipv6Builder {
    public static final int HOP_BY_HOP = 0;
    public static final int TCP = 6;
    public static final int ROUTING = 43;
    public static final int FRAGMENT = 44;
    public static final int AH = 51;
    public static final int ICMPV6 = 58;
    public static final int NO_NEXT = 59;
    public static final int DEST_OPTS = 60;

    private record Ext(int type, byte[] body) {
    }

    private final byte[] src;
    private final byte[] dst;
    /** Where the packet is finally going (the last routing-header address): the checksum's pseudo-header uses it. */
    private byte[] finalDst;
    private int hopLimit = 64;
    private int trafficClass;
    private int flowLabel;
    private final List<Ext> exts = new ArrayList<>();
    private int protocol = TCP;
    private byte[] payload = new byte[0];
    private Integer payloadLength;
    private Integer version;
    private boolean fragmented;
    private boolean transportChecksum = true;

    private Ipv6Builder(String src, String dst) {
        this.src = Addresses.v6(src);
        this.dst = Addresses.v6(dst);
    }

    public static Ipv6Builder ipv6(String src, String dst) {
        return new Ipv6Builder(src, dst);
    }

    public Ipv6Builder hopLimit(int v) {
        hopLimit = v;
        return this;
    }

    public Ipv6Builder trafficClass(int v) {
        trafficClass = v;
        return this;
    }

    public Ipv6Builder flowLabel(int v) {
        flowLabel = v;
        return this;
    }

    /** Hop-by-hop options header holding {@code options} (TLVs), padded with Pad1/PadN to 8 bytes. */
    public Ipv6Builder hopByHop(byte[] options) {
        exts.add(new Ext(HOP_BY_HOP, optionsBody(options)));
        return this;
    }

    public Ipv6Builder destOpts(byte[] options) {
        exts.add(new Ext(DEST_OPTS, optionsBody(options)));
        return this;
    }

    /** Routing header of {@code type} with {@code segmentsLeft}: 4 reserved bytes then {@code addresses}. */
    public Ipv6Builder routing(int type, int segmentsLeft, String... addresses) {
        Buf b = new Buf().u8(type).u8(segmentsLeft).zeros(4);
        for (String a : addresses) {
            b.bytes(Addresses.v6(a));
            finalDst = Addresses.v6(a);
        }
        exts.add(new Ext(ROUTING, b.toByteArray()));
        return this;
    }

    /** Fragment header: offset in 8-byte units, more-fragments flag, identification. */
    public Ipv6Builder fragment(int offset8, boolean more, int id) {
        Buf b = new Buf().u8(0).u16((offset8 << 3) | (more ? 1 : 0)).u32(id & 0xffffffffL);
        exts.add(new Ext(FRAGMENT, b.toByteArray()));
        fragmented |= offset8 != 0 || more;
        return this;
    }

    /** Authentication header (RFC 4302) with an ICV of {@code icvBytes} (a multiple of 4 keeping 8-alignment). */
    public Ipv6Builder ah(int spi, int seq, int icvBytes) {
        Buf b = new Buf().u16(0).u32(spi & 0xffffffffL).u32(seq & 0xffffffffL).zeros(icvBytes);
        exts.add(new Ext(AH, b.toByteArray()));
        return this;
    }

    public Ipv6Builder payload(int proto, byte[] v) {
        protocol = proto;
        payload = v.clone();
        return this;
    }

    public Ipv6Builder tcp(TcpBuilder t) {
        return payload(TCP, t.build());
    }

    public Ipv6Builder icmpv6(byte[] message) {
        return payload(ICMPV6, message);
    }

    public Ipv6Builder payloadLength(int v) {
        payloadLength = v;
        return this;
    }

    public Ipv6Builder version(int v) {
        version = v;
        return this;
    }

    public Ipv6Builder noTransportChecksum() {
        transportChecksum = false;
        return this;
    }

    /** Pads TLV options after the 2-byte (next, length) prefix to a multiple of 8 with Pad1 / PadN. */
    private static byte[] optionsBody(byte[] options) {
        Buf b = new Buf().bytes(options);
        int pad = (8 - (2 + options.length) % 8) % 8;
        if (pad == 1) {
            b.u8(0);
        } else if (pad > 1) {
            b.u8(1).u8(pad - 2).zeros(pad - 2);
        }
        return b.toByteArray();
    }

    /** Jumbo-payload-style router alert option (type 5, length 2) for a hop-by-hop header. */
    public static byte[] routerAlert() {
        return new byte[] {5, 2, 0, 0};
    }

    public byte[] build() {
        Buf chain = new Buf();
        for (int i = 0; i < exts.size(); i++) {
            Ext e = exts.get(i);
            int next = i + 1 < exts.size() ? exts.get(i + 1).type : protocol;
            int total = 2 + e.body.length;
            if (e.type == AH) {
                if (total % 4 != 0) {
                    throw new IllegalStateException("AH length must be a multiple of 4");
                }
                chain.u8(next).u8(total / 4 - 2).bytes(e.body);
            } else if (e.type == FRAGMENT) {
                chain.u8(next).bytes(e.body);
            } else {
                int padded = (total + 7) / 8 * 8;
                chain.u8(next).u8(padded / 8 - 1).bytes(e.body).zeros(padded - total);
            }
        }
        byte[] body = payload.clone();
        if (transportChecksum && !fragmented && (protocol == TCP && body.length >= 20 || protocol == ICMPV6 && body.length >= 4)) {
            int at = protocol == TCP ? 16 : 2;
            byte[] ph = new Buf().bytes(src).bytes(finalDst != null ? finalDst : dst).u32(body.length).zeros(3).u8(protocol).toByteArray();
            Buf.put16(body, at, 0);
            Buf.put16(body, at, ~Checksum.sum(body, 0, body.length, Checksum.sum(ph, 0, ph.length, 0)) & 0xffff);
        }
        byte[] ext = chain.toByteArray();
        int first = exts.isEmpty() ? protocol : exts.get(0).type;
        return new Buf()
                .u32(((long) (version != null ? version : 6) << 28) | ((long) trafficClass << 20) | (flowLabel & 0xfffff))
                .u16(payloadLength != null ? payloadLength : ext.length + body.length)
                .u8(first).u8(hopLimit)
                .bytes(src).bytes(dst)
                .bytes(ext).bytes(body)
                .toByteArray();
    }
}
