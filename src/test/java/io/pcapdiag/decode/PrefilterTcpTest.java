package io.pcapdiag.decode;

import io.pcapdiag.decode.PrefilterCases.Case;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The prefilter on TCP that is in no tunnel, where its fast path (untagged Ethernet with IPv4) and its general path
 * take most of a node's frames: it may skip only what the full decoder calls a plain TCP segment, and it must skip every
 * well-formed plain one ({@link PrefilterCases}). Random segments on Ethernet, Linux cooked v2 and raw IP, v4 and v6,
 * each built well or varied in one of the ways the decoder cares about.
 */
class PrefilterTcpTest {
    private static final int[] PLAIN_FLAGS = {TcpBuilder.ACK, TcpBuilder.PSH | TcpBuilder.ACK, TcpBuilder.FIN | TcpBuilder.ACK,
        TcpBuilder.URG | TcpBuilder.ACK, TcpBuilder.ECE | TcpBuilder.CWR | TcpBuilder.ACK};
    private static final int[] OTHER_FLAGS = {TcpBuilder.SYN, TcpBuilder.SYN | TcpBuilder.ACK, TcpBuilder.RST,
        TcpBuilder.RST | TcpBuilder.ACK, TcpBuilder.SYN | TcpBuilder.RST};

    private static Case random(Random r) {
        boolean plain = r.nextInt(4) != 0;
        int flags = plain ? PLAIN_FLAGS[r.nextInt(PLAIN_FLAGS.length)] : OTHER_FLAGS[r.nextInt(OTHER_FLAGS.length)];
        // One variation at most, so that a well-formed frame is known to be one.
        int variation = r.nextInt(3) == 0 ? 1 + r.nextInt(11) : 0;
        TcpBuilder tcp = TcpBuilder.tcp(40000 + r.nextInt(1000), 443).seq(r.nextInt()).ack(r.nextInt()).flags(flags)
                .payload(new byte[r.nextInt(3) == 0 ? 0 : r.nextInt(1400)]);
        if (r.nextInt(4) == 0) {
            tcp.options(new byte[] {1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2}); // NOP, NOP, timestamps: a longer header
        }
        if (variation == 1) {
            tcp.dataOffsetWords(r.nextInt(5));
        }
        boolean v6 = r.nextBoolean();
        byte[] ip;
        if (v6) {
            Ipv6Builder b = Ipv6Builder.ipv6("fd00:10:244:1::5", "fd00:10:96::1bb").tcp(tcp);
            if (r.nextBoolean()) {
                b.trafficClass(r.nextInt(256)).flowLabel(r.nextInt(1 << 20)); // the first byte is 0x6 and a traffic class
            }
            if (variation == 2) {
                b.hopByHop(Ipv6Builder.routerAlert());
            } else if (variation == 3) {
                b.fragment(r.nextInt(2) * (1 + r.nextInt(100)), true, 7);
            } else if (variation == 4) {
                b.payloadLength(r.nextInt(3) == 0 ? 0 : r.nextInt(40));
            }
            ip = b.build();
        } else {
            Ipv4Builder b = Ipv4Builder.ipv4("10.244.1.5", "10.96.0.1").tcp(tcp);
            if (variation == 2) {
                b.options(Ipv4Builder.recordRoute(2));
            } else if (variation == 3) {
                b.fragment(r.nextInt(2) * (1 + r.nextInt(100)), r.nextBoolean());
            } else if (variation == 4) {
                b.totalLength(r.nextInt(3) == 0 ? 0 : r.nextInt(60));
            }
            ip = b.build();
        }
        if (variation == 5) { // the version nibble says the other version, or none
            ip = ip.clone();
            ip[0] = (byte) ((new int[] {4, 6, 5, 0}[r.nextInt(4)] << 4) | (ip[0] & 0x0f));
        } else if (variation == 6) { // another protocol in the IP header: UDP, ICMP, a tunnel, anything
            ip = ip.clone();
            ip[v6 ? 6 : 9] = (byte) new int[] {17, 1, 58, 4, 41, 47, 0, r.nextInt(256)}[r.nextInt(8)];
        }
        int linkType = r.nextInt(4) != 0 ? LinkBuilder.LINKTYPE_ETHERNET
                : r.nextBoolean() ? LinkBuilder.LINKTYPE_LINUX_SLL2 : LinkBuilder.LINKTYPE_RAW;
        byte[] frame = switch (linkType) {
            case LinkBuilder.LINKTYPE_ETHERNET -> variation == 7 ? LinkBuilder.ethernet().tag(LinkBuilder.TPID_8021Q, 20)
                    .payload(ip) : LinkBuilder.ethernet(ip);
            case LinkBuilder.LINKTYPE_LINUX_SLL2 -> LinkBuilder.sll2(LinkBuilder.MAC_A, ip);
            default -> ip;
        };
        if (variation == 8 && linkType == LinkBuilder.LINKTYPE_ETHERNET) { // the Ethertype says the other version
            frame = frame.clone();
            int type = v6 ? LinkBuilder.ETHERTYPE_IPV4 : LinkBuilder.ETHERTYPE_IPV6;
            frame[12] = (byte) (type >> 8);
            frame[13] = (byte) type;
        }
        int capLen = variation == 9 ? PrefilterCases.cut(r, frame.length, 80)
                : variation == 10 ? Math.max(1, frame.length - r.nextInt(Math.min(frame.length, 24)))
                : variation == 11 ? frame.length - ip.length + (v6 ? 40 : 20) + r.nextInt(20) // cut in the TCP header
                : frame.length;
        return new Case(linkType, frame, capLen, plain && variation == 0, (variation == 0 ? "well formed" : "variation "
                + variation) + (v6 ? ", v6" : ", v4") + ", flags " + flags + ", link type " + linkType);
    }

    @Test
    void theSegmentsSkippedAreThePlainOnesAndEveryWellFormedPlainOneIs() {
        PrefilterCases.check(443, PrefilterTcpTest::random, Prefilter.PLAIN_SEGMENT);
    }
}
