package io.pcapdiag.decode;

import io.pcapdiag.decode.PrefilterCases.Case;
import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The prefilter looks into Geneve (OVN-Kubernetes, Antrea) and IP in IP (Calico's IPIP mode) as it does into VXLAN
 * ({@link PrefilterTunnelTest}): it may take only what the full decoder calls a plain TCP segment, and it must take a
 * well-formed plain one ({@link PrefilterCases}). Random frames, each built well or varied in one of the ways the
 * decoder cares about.
 */
class PrefilterGeneveIpipTest {
    private static final int[] PLAIN_FLAGS = {TcpBuilder.ACK, TcpBuilder.PSH | TcpBuilder.ACK,
        TcpBuilder.FIN | TcpBuilder.ACK};
    private static final int[] OTHER_FLAGS = {TcpBuilder.SYN, TcpBuilder.SYN | TcpBuilder.ACK, TcpBuilder.RST};
    private static final int PROTO_IPIP = 4;
    private static final int PROTO_IPV6 = 41;

    /** The packet inside: TCP, plain or not, in IPv4 (perhaps with options or a fragment offset) or IPv6. */
    private record Inner(byte[] ip, boolean plain, boolean v6, String how) {
    }

    private static Inner inner(Random r, int variation) {
        boolean plain = r.nextInt(4) != 0;
        int flags = plain ? PLAIN_FLAGS[r.nextInt(PLAIN_FLAGS.length)] : OTHER_FLAGS[r.nextInt(OTHER_FLAGS.length)];
        TcpBuilder tcp = TcpBuilder.tcp(40000 + r.nextInt(1000), 8080).seq(r.nextInt()).ack(r.nextInt()).flags(flags)
                .payload(new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(1200)]);
        if (r.nextBoolean()) {
            return new Inner(Ipv6Builder.ipv6("fd00:10:244:1::5", "fd00:10:244:2::7").tcp(tcp).build(), plain, true,
                    "inner v6, flags " + flags);
        }
        Ipv4Builder b = Ipv4Builder.ipv4("10.244.1.5", "10.244.2.7").tcp(tcp);
        if (variation == 1) {
            b.options(Ipv4Builder.recordRoute(2));
        } else if (variation == 2) {
            b.fragment(1 + r.nextInt(100), r.nextBoolean());
        }
        return new Inner(b.build(), plain, false, "inner v4, flags " + flags);
    }

    /** The outer IP packet around {@code payload} of protocol {@code proto}, varied (3: its length, 4: a fragment). */
    private static byte[] outer(Random r, int proto, byte[] payload, int variation) {
        if (r.nextInt(4) == 0) {
            Ipv6Builder b = Ipv6Builder.ipv6("fd00::1", "fd00::2").payload(proto, payload);
            if (variation == 3) {
                b.payloadLength(r.nextBoolean() ? 0 : r.nextInt(payload.length));
            }
            return b.build();
        }
        Ipv4Builder b = Ipv4Builder.ipv4("192.168.0.1", "192.168.0.2").payload(proto, payload);
        if (variation == 3) {
            b.totalLength(r.nextBoolean() ? 0 : r.nextInt(20 + payload.length));
        } else if (variation == 4) {
            b.fragment(r.nextInt(2) * (1 + r.nextInt(100)), true);
        }
        return b.build();
    }

    /** Ethernet around the outer packet (5: a VLAN tag), cut by the capture (6). */
    private static Case frame(Random r, byte[] outer, int variation, boolean mustTake, String how) {
        byte[] frame = variation == 5 ? LinkBuilder.ethernet().tag(LinkBuilder.TPID_8021Q, 20).payload(outer)
                : LinkBuilder.ethernet(outer);
        int capLen = variation == 6 ? PrefilterCases.cut(r, frame.length, 150) : frame.length;
        return new Case(LinkBuilder.LINKTYPE_ETHERNET, frame, capLen, mustTake, how);
    }

    private static Case geneve(Random r) {
        // One variation at most, so that a well-formed frame is known to be one.
        int variation = r.nextInt(3) == 0 ? 1 + r.nextInt(11) : 0;
        Inner in = inner(r, variation);
        // Options are part of a well-formed header: 0 to 3 of them, each of 4 to 12 bytes.
        Buf options = new Buf();
        for (int i = r.nextInt(4); i > 0; i--) {
            int words = 1 + r.nextInt(3);
            options.u16(0x0102).u8(r.nextInt(256)).u8(words - 1);
            for (int w = 1; w < words; w++) {
                options.u32(r.nextInt());
            }
        }
        byte[] opts = options.toByteArray();
        boolean bridged = r.nextBoolean();
        byte[] body;
        if (bridged) {
            LinkBuilder.Ethernet eth = LinkBuilder.ethernet();
            if (variation == 7) {
                eth.tag(LinkBuilder.TPID_8021Q, 10);
            } else if (variation == 8) {
                eth.type(LinkBuilder.ETHERTYPE_ARP);
            }
            body = eth.payload(in.ip());
        } else {
            body = in.ip();
        }
        int type = bridged ? 0x6558 : in.v6() ? 0x86dd : 0x0800;
        if (variation == 8 && !bridged) {
            type = 0x894f; // NSH: not a packet the decoder looks into
        }
        int version = variation == 9 ? 1 + r.nextInt(3) : 0;
        int optionWords = opts.length / 4;
        if (variation == 10) {
            optionWords = Math.min(63, optionWords + 1 + r.nextInt(40)); // longer than what follows
        }
        byte[] header = new Buf().u8(version << 6 | optionWords).u8(r.nextInt(2) << 7).u16(type).u16(0x12).u8(0x34)
                .u8(0).bytes(opts).toByteArray();
        int port = variation == 11 ? new int[] {4789, 6082, 53}[r.nextInt(3)] : 6081;
        byte[] datagram = new Buf().u16(51000).u16(port).u16(8 + header.length + body.length).u16(0).bytes(header)
                .bytes(body).toByteArray();
        return frame(r, outer(r, Ipv4Builder.PROTO_UDP, datagram, variation), variation, in.plain() && variation == 0,
                "geneve, variation " + variation + (bridged ? ", bridged, " : ", ip, ") + opts.length
                        + " bytes of options, " + in.how());
    }

    private static Case ipip(Random r) {
        int variation = r.nextInt(3) == 0 ? 1 + r.nextInt(9) : 0;
        Inner in = inner(r, variation);
        int proto = in.v6() ? PROTO_IPV6 : PROTO_IPIP;
        byte[] carried = in.ip();
        if (variation == 9) { // IP in IP in IP, 1 to 4 levels more: the decoder's, which gives up 3 deep
            for (int i = r.nextInt(4); i >= 0; i--) {
                carried = Ipv4Builder.ipv4("172.16.0.1", "172.16.0.2").payload(proto, carried).build();
                proto = PROTO_IPIP;
            }
        }
        if (variation == 7) {
            proto = proto == PROTO_IPV6 ? PROTO_IPIP : PROTO_IPV6; // the protocol says the other version
        }
        byte[] outer;
        if (variation == 8) { // options on the outer header: the decoder's
            outer = Ipv4Builder.ipv4("192.168.0.1", "192.168.0.2").options(Ipv4Builder.recordRoute(1))
                    .payload(proto, carried).build();
        } else {
            outer = outer(r, proto, carried, variation);
        }
        return frame(r, outer, variation, in.plain() && variation == 0,
                "ip in ip " + proto + ", variation " + variation + ", " + in.how());
    }

    @Test
    void theGeneveFramesTakenAreThePlainOnesAndEveryWellFormedPlainOneIs() {
        PrefilterCases.check(6081, PrefilterGeneveIpipTest::geneve, Prefilter.PLAIN_SEGMENT);
    }

    @Test
    void theIpInIpFramesTakenAreThePlainOnesAndEveryWellFormedPlainOneIs() {
        PrefilterCases.check(4, PrefilterGeneveIpipTest::ipip, Prefilter.PLAIN_SEGMENT);
    }
}
