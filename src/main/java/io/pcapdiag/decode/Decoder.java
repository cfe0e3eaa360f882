package io.pcapdiag.decode;

import io.pcapdiag.capture.Frame;

/**
 * Decodes one frame into a {@link PacketView}. Stateless apart from its scratch cursor, so one decoder
 * per thread; every read is bounds-checked against the captured length.
 */
public final class Decoder {
    private final Cursor cursor = new Cursor();

    /** A decoder that reads DNS on port 53. */
    public Decoder() {
    }

    /** A decoder that reads DNS on port 53 and on {@code dnsPorts} too (the cluster DNS Service's ports). */
    public Decoder(java.util.Collection<Integer> dnsPorts) {
        cursor.dnsPorts = dnsPorts.stream().filter(p -> p > 0 && p <= 65535 && p != Dns.PORT).mapToInt(Integer::intValue)
                .distinct().sorted().toArray();
    }

    /** Decodes {@code frame} into {@code v} (which is reset first) and returns what it was. */
    public PacketView.Kind decode(Frame frame, PacketView v) {
        return decode(frame, v, 0);
    }

    /**
     * Decodes all of {@code frame} into {@code v}, with the {@code dnsMessage}-th DNS message of its TCP segment (0 the
     * first) as the view's DNS message: a segment may carry several ({@link PacketView#dnsMore}).
     */
    public PacketView.Kind decode(Frame frame, PacketView v, int dnsMessage) {
        v.reset();
        Cursor c = cursor;
        c.dnsMessage = dnsMessage;
        c.b = frame.data;
        c.start = frame.offset;
        c.end = frame.offset + frame.capLen;
        c.netType = 0;
        c.firstFragment = false;
        int off = LinkTypes.strip(frame.linkType, c, frame.offset, v);
        if (off == LinkTypes.UNSUPPORTED) {
            v.kind = PacketView.Kind.UNDECODABLE;
            v.weird = Weird.UNKNOWN_LINK_TYPE;
            return v.kind;
        }
        if (off < 0) {
            v.kind = PacketView.Kind.UNDECODABLE;
            return v.kind;
        }
        int type = c.netType;
        if (type == LinkTypes.BY_VERSION) {
            if (!c.has(off, 1)) {
                Ipv4.flag(v, Weird.TRUNCATED_IP);
                return v.kind;
            }
            type = switch (c.u8(off) >> 4) {
                case 4 -> LinkTypes.ETHERTYPE_IPV4;
                case 6 -> LinkTypes.ETHERTYPE_IPV6;
                default -> 0;
            };
            if (type == 0) {
                Ipv4.flag(v, Weird.BAD_IP_VERSION);
                return v.kind;
            }
        }
        if (type == LinkTypes.ETHERTYPE_IPV4) {
            Ipv4.decode(c, off, v);
        } else if (type == LinkTypes.ETHERTYPE_IPV6) {
            Ipv6.decode(c, off, v);
        }
        return v.kind;
    }
}
