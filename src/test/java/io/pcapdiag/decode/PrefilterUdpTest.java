package io.pcapdiag.decode;

import io.pcapdiag.decode.PrefilterCases.Case;
import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The prefilter takes UDP to ports that are no overlay's as a plain other packet: only what the full decoder calls a
 * packet of no interest without anomaly, and every well-formed one. Random datagrams on Ethernet, Linux cooked v2 and
 * raw IP, v4 and v6, each built well or varied in one of the ways the decoder cares about ({@link PrefilterCases}).
 */
class PrefilterUdpTest {
    private static Case random(Random r) {
        int[] ports = {53, 123, 8125, 4789, 8472, 6081, 51820, r.nextInt(65536)};
        int port = ports[r.nextInt(ports.length)];
        boolean tunnelPort = port == 4789 || port == 8472 || port == 6081;
        byte[] payload = new byte[r.nextInt(4) == 0 ? r.nextInt(4) : r.nextInt(1400)];
        r.nextBytes(payload);
        byte[] datagram = new Buf().u16(40000 + r.nextInt(1000)).u16(port).u16(8 + payload.length).u16(0).bytes(payload)
                .toByteArray();
        int variation = r.nextInt(3) == 0 ? 1 + r.nextInt(8) : 0;
        String how = (variation == 0 ? "well formed" : "variation " + variation) + ", port " + port;
        boolean v6 = r.nextBoolean();
        byte[] ip;
        if (v6) {
            Ipv6Builder b = Ipv6Builder.ipv6("fd00:10:244:1::5", "fd00:10:96::a").payload(Ipv4Builder.PROTO_UDP, datagram);
            if (variation == 1) {
                b.hopByHop(Ipv6Builder.routerAlert());
            } else if (variation == 2) {
                b.fragment(r.nextInt(2) * (1 + r.nextInt(100)), true, 7);
            } else if (variation == 3) {
                b.payloadLength(r.nextBoolean() ? 0 : r.nextInt(datagram.length + 1));
            }
            ip = b.build();
        } else {
            Ipv4Builder b = Ipv4Builder.ipv4("10.244.1.5", "10.96.0.10").payload(Ipv4Builder.PROTO_UDP, datagram);
            if (variation == 1) {
                b.options(Ipv4Builder.recordRoute(2));
            } else if (variation == 2) {
                b.fragment(r.nextInt(2) * (1 + r.nextInt(100)), true);
            } else if (variation == 3) {
                b.totalLength(r.nextBoolean() ? 0 : r.nextInt(20 + datagram.length + 1));
            } else if (variation == 4) {
                b.version(r.nextBoolean() ? 6 : 5);
            }
            ip = b.build();
        }
        int linkType = new int[] {LinkBuilder.LINKTYPE_ETHERNET, LinkBuilder.LINKTYPE_LINUX_SLL2, LinkBuilder.LINKTYPE_RAW}[
                r.nextInt(3)];
        byte[] frame = switch (linkType) {
            case LinkBuilder.LINKTYPE_ETHERNET -> variation == 5 ? LinkBuilder.ethernet().tag(LinkBuilder.TPID_8021Q, 20)
                    .payload(ip) : LinkBuilder.ethernet(ip);
            case LinkBuilder.LINKTYPE_LINUX_SLL2 -> LinkBuilder.sll2(LinkBuilder.MAC_A, ip);
            default -> ip;
        };
        int capLen = variation == 6 ? PrefilterCases.cut(r, frame.length, 60) : frame.length;
        if (variation == 7) { // another protocol in the IP header: ICMP, TCP, IP in IP, anything
            frame = frame.clone();
            int at = frame.length - ip.length + (v6 ? 6 : 9);
            frame[at] = (byte) new int[] {1, 6, 4, 41, 58, 47, r.nextInt(256)}[r.nextInt(7)];
        }
        if (variation == 8) { // the UDP header cut by the IP length
            ip = v6 ? Ipv6Builder.ipv6("fd00::1", "fd00::2").payload(Ipv4Builder.PROTO_UDP, new byte[r.nextInt(8)]).build()
                    : Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2").payload(Ipv4Builder.PROTO_UDP, new byte[r.nextInt(8)]).build();
            frame = linkType == LinkBuilder.LINKTYPE_ETHERNET ? LinkBuilder.ethernet(ip)
                    : linkType == LinkBuilder.LINKTYPE_LINUX_SLL2 ? LinkBuilder.sll2(LinkBuilder.MAC_A, ip) : ip;
            capLen = frame.length;
        }
        return new Case(linkType, frame, capLen, variation == 0 && !tunnelPort, how + (v6 ? ", v6" : ", v4")
                + ", link type " + linkType);
    }

    @Test
    void theDatagramsTakenAreThePlainOnesAndEveryWellFormedOneIs() {
        PrefilterCases.check(53, PrefilterUdpTest::random, Prefilter.PLAIN_OTHER);
    }
}
