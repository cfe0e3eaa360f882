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
 * The prefilter looks into VXLAN (an overlay's underlay is all VXLAN): it may skip only what the full decoder calls a
 * plain TCP segment, and it must skip a well-formed plain one ({@link PrefilterCases}). Random frames, each built well
 * or varied in one of the ways the decoder cares about.
 */
class PrefilterTunnelTest {
    private static final int[] PLAIN_FLAGS = {TcpBuilder.ACK, TcpBuilder.PSH | TcpBuilder.ACK, TcpBuilder.FIN | TcpBuilder.ACK,
        TcpBuilder.URG | TcpBuilder.ACK};
    private static final int[] OTHER_FLAGS = {TcpBuilder.SYN, TcpBuilder.SYN | TcpBuilder.ACK, TcpBuilder.RST,
        TcpBuilder.RST | TcpBuilder.ACK};

    private static byte[] udp(int dport, byte[] payload) {
        return new Buf().u16(51000).u16(dport).u16(8 + payload.length).u16(0).bytes(payload).toByteArray();
    }

    private static Case random(Random r) {
        boolean plain = r.nextInt(4) != 0;
        int flags = plain ? PLAIN_FLAGS[r.nextInt(PLAIN_FLAGS.length)] : OTHER_FLAGS[r.nextInt(OTHER_FLAGS.length)];
        TcpBuilder tcp = TcpBuilder.tcp(40000 + r.nextInt(1000), 8080).seq(r.nextInt()).ack(r.nextInt()).flags(flags)
                .payload(new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(1200)]);
        // One variation at most, so that a well-formed frame is known to be one.
        int variation = r.nextInt(3) == 0 ? 1 + r.nextInt(12) : 0;
        String how = variation == 0 ? "well formed" : "variation " + variation;
        boolean innerV6 = r.nextBoolean();
        byte[] inner;
        if (innerV6) {
            inner = Ipv6Builder.ipv6("fd00:10:244:1::5", "fd00:10:244:2::7").tcp(tcp).build();
        } else {
            Ipv4Builder b = Ipv4Builder.ipv4("10.244.1.5", "10.244.2.7").tcp(tcp);
            if (variation == 1) {
                b.options(Ipv4Builder.recordRoute(2));
            } else if (variation == 2) {
                b.fragment(1 + r.nextInt(100), r.nextBoolean());
            }
            inner = b.build();
        }
        LinkBuilder.Ethernet innerEth = LinkBuilder.ethernet();
        if (variation == 3) {
            innerEth.tag(LinkBuilder.TPID_8021Q, 10);
        } else if (variation == 4) {
            innerEth.type(LinkBuilder.ETHERTYPE_ARP);
        }
        byte[] vxlanPayload = new Buf().u8(variation == 5 ? 0x00 : 0x08).u8(0).u16(0).u16(0x12).u8(0x34).u8(0)
                .bytes(innerEth.payload(inner)).toByteArray();
        if (variation == 6) { // VXLAN in VXLAN: the decoder follows it; the prefilter leaves it to the decoder
            vxlanPayload = new Buf().u8(0x08).u8(0).u16(0).u16(0).u8(1).u8(0).bytes(LinkBuilder.ethernet(
                    Ipv4Builder.ipv4("172.16.0.1", "172.16.0.2").payload(Ipv4Builder.PROTO_UDP, udp(4789, vxlanPayload))
                            .build())).toByteArray();
        }
        int port = variation == 7 ? new int[] {6081, 53, 4790}[r.nextInt(3)] : r.nextBoolean() ? 4789 : 8472;
        byte[] datagram = udp(port, vxlanPayload);
        byte[] outer;
        if (r.nextInt(4) == 0) {
            Ipv6Builder b = Ipv6Builder.ipv6("fd00::1", "fd00::2").payload(Ipv4Builder.PROTO_UDP, datagram);
            if (variation == 8) {
                b.payloadLength(r.nextBoolean() ? 0 : r.nextInt(datagram.length));
            }
            outer = b.build();
        } else {
            Ipv4Builder b = Ipv4Builder.ipv4("192.168.0.1", "192.168.0.2").payload(Ipv4Builder.PROTO_UDP, datagram);
            if (variation == 8) {
                b.totalLength(r.nextBoolean() ? 0 : r.nextInt(20 + datagram.length));
            } else if (variation == 9) {
                b.fragment(r.nextInt(2) * (1 + r.nextInt(100)), true);
            }
            outer = b.build();
        }
        byte[] frame = variation == 10 ? LinkBuilder.ethernet().tag(LinkBuilder.TPID_8021Q, 20).payload(outer)
                : LinkBuilder.ethernet(outer);
        int capLen = variation == 11 ? PrefilterCases.cut(r, frame.length, 110) : frame.length;
        if (variation == 12) {
            frame = frame.clone();
            frame[14 + (outer[0] >> 4 == 6 ? 40 : 20) + 16 + 12] ^= (byte) 0x40; // inner Ethernet type changed
        }
        return new Case(LinkBuilder.LINKTYPE_ETHERNET, frame, capLen, plain && variation == 0, how + (innerV6 ? ", inner v6" : ", inner v4")
                + ", flags " + flags);
    }

    @Test
    void theVxlanFramesSkippedAreThePlainOnesAndEveryWellFormedPlainOneIs() {
        PrefilterCases.check(8472, PrefilterTunnelTest::random, Prefilter.PLAIN_SEGMENT);
    }
}
