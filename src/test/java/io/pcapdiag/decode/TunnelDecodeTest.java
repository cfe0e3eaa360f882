package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decode;
import static io.pcapdiag.decode.DecodeTesting.decodeCut;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import org.junit.jupiter.api.Test;

/** VXLAN, Geneve and IP in IP down to the inner SYN; broken tunnel headers leave the outer packet, counted. */
class TunnelDecodeTest {
    private static final byte[] INNER_SYN = Ipv4Builder.ipv4("10.244.1.5", "10.244.2.7")
            .tcp(TcpBuilder.tcp(40000, 8080).seq(77).flags(TcpBuilder.SYN)).build();

    private static byte[] udp(int sport, int dport, byte[] payload) {
        return new Buf().u16(sport).u16(dport).u16(8 + payload.length).u16(0).bytes(payload).toByteArray();
    }

    private static byte[] vxlanHeader(int flags, int vni) {
        return new Buf().u8(flags).u8(0).u16(0).u16(vni >> 8).u8(vni & 0xff).u8(0).toByteArray();
    }

    /** An Ethernet frame from node 192.168.0.1 to node 192.168.0.2 carrying {@code inner} in UDP to {@code port}. */
    private static byte[] overUdp(int port, byte[] tunnelPayload) {
        return LinkBuilder.ethernet(Ipv4Builder.ipv4("192.168.0.1", "192.168.0.2")
                .payload(Ipv4Builder.PROTO_UDP, udp(51000, port, tunnelPayload)).build());
    }

    private static byte[] vxlan(int port, int vni, byte[] innerIp) {
        return overUdp(port, new Buf().bytes(vxlanHeader(0x08, vni)).bytes(LinkBuilder.ethernet(innerIp)).toByteArray());
    }

    private static void assertInnerSyn(PacketView v) {
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertEquals("10.244.1.5", Ip.format(v.srcHi, v.srcLo));
        assertEquals("10.244.2.7", Ip.format(v.dstHi, v.dstLo));
        assertEquals(40000, v.srcPort);
        assertEquals(8080, v.dstPort);
        assertTrue(v.has(PacketView.SYN));
        assertNull(v.weird);
    }

    private static void assertTunnel(PacketView v, int type, String src, String dst, int vni) {
        assertEquals(type, v.tunnelType);
        assertEquals(src, Ip.format(v.tunnelSrcHi, v.tunnelSrcLo));
        assertEquals(dst, Ip.format(v.tunnelDstHi, v.tunnelDstLo));
        assertEquals(vni, v.tunnelVni);
    }

    @Test
    void vxlanOnTheIanaAndTheLinuxPort() {
        for (int port : new int[] {4789, 8472}) {
            PacketView v = decode(LinkBuilder.LINKTYPE_ETHERNET, vxlan(port, 0x123456, INNER_SYN));
            assertInnerSyn(v);
            assertTunnel(v, PacketView.TUNNEL_VXLAN, "192.168.0.1", "192.168.0.2", 0x123456);
        }
    }

    @Test
    void geneveWithOptionsAndAnIpv6Inner() {
        byte[] inner6 = Ipv6Builder.ipv6("fd00::5", "fd00::7").tcp(TcpBuilder.tcp(1, 2).flags(TcpBuilder.SYN)).build();
        byte[] options = new byte[8]; // one 8-byte option (length field 2 words)
        byte[] header = new Buf().u8(2).u8(0).u16(0x86dd).u16(0x0000).u8(11).u8(0).bytes(options).toByteArray();
        PacketView v = decode(LinkBuilder.LINKTYPE_ETHERNET, overUdp(6081, new Buf().bytes(header).bytes(inner6).toByteArray()));
        assertEquals(PacketView.Kind.TCP, v.kind);
        assertEquals(6, v.ipVersion);
        assertEquals("fd00::7", Ip.format(v.dstHi, v.dstLo));
        assertTunnel(v, PacketView.TUNNEL_GENEVE, "192.168.0.1", "192.168.0.2", 11);
    }

    @Test
    void ipInIpBothFamilies() {
        PacketView v4 = decode(LinkBuilder.LINKTYPE_ETHERNET, LinkBuilder.ethernet(Ipv4Builder.ipv4("192.168.0.1", "192.168.0.2")
                .payload(Tunnels.PROTO_IPIP, INNER_SYN).build()));
        assertInnerSyn(v4);
        assertTunnel(v4, PacketView.TUNNEL_IP_IN_IP, "192.168.0.1", "192.168.0.2", -1);
        PacketView v6 = decode(LinkBuilder.LINKTYPE_ETHERNET, LinkBuilder.ethernet(Ipv6Builder.ipv6("2001:db8::1", "2001:db8::2")
                .payload(Tunnels.PROTO_IPIP, INNER_SYN).build()));
        assertInnerSyn(v6);
        assertTunnel(v6, PacketView.TUNNEL_IP_IN_IP, "2001:db8::1", "2001:db8::2", -1);
    }

    @Test
    void truncatedVxlanHeaderLeavesTheOuterUdpPacketCounted() {
        byte[] frame = vxlan(4789, 1, INNER_SYN);
        int vxlanAt = 14 + 20 + 8;
        PacketView v = decodeCut(LinkBuilder.LINKTYPE_ETHERNET, frame, vxlanAt + 4);
        assertEquals(PacketView.Kind.UDP, v.kind, "the view is the outer UDP datagram");
        assertEquals("192.168.0.2", Ip.format(v.dstHi, v.dstLo), "the view is the outer packet");
        assertEquals(Weird.TRUNCATED_TUNNEL, v.weird);
        assertTrue(v.truncated);
        assertEquals(PacketView.TUNNEL_NONE, v.tunnelType);
    }

    @Test
    void innerPacketCutShortIsTruncationNotAnAttempt() {
        byte[] frame = vxlan(4789, 1, INNER_SYN);
        PacketView v = decodeCut(LinkBuilder.LINKTYPE_ETHERNET, frame, frame.length - 10); // inside the inner TCP header
        assertEquals(PacketView.Kind.UDP, v.kind, "the view is the outer UDP datagram");
        assertEquals("192.168.0.2", Ip.format(v.dstHi, v.dstLo));
        assertEquals(Weird.TRUNCATED_TCP, v.weird);
        assertTrue(v.truncated);
    }

    @Test
    void vxlanWithoutItsIFlagIsMalformed() {
        byte[] frame = overUdp(4789, new Buf().bytes(vxlanHeader(0x00, 1)).bytes(LinkBuilder.ethernet(INNER_SYN)).toByteArray());
        PacketView v = decode(LinkBuilder.LINKTYPE_ETHERNET, frame);
        assertEquals(PacketView.Kind.UDP, v.kind, "the view is the outer UDP datagram");
        assertEquals(Weird.BAD_TUNNEL_HEADER, v.weird);
        assertFalse(v.truncated);
    }

    @Test
    void nestingIsFollowedToAFixedDepth() {
        byte[] ip = INNER_SYN;
        for (int i = 0; i < Tunnels.MAX_DEPTH; i++) {
            ip = Ipv4Builder.ipv4("192.168.0." + (i + 1), "192.168.1." + (i + 1)).payload(Tunnels.PROTO_IPIP, ip).build();
        }
        PacketView ok = decode(LinkBuilder.LINKTYPE_RAW, ip);
        assertInnerSyn(ok);
        assertTunnel(ok, PacketView.TUNNEL_IP_IN_IP, "192.168.0." + Tunnels.MAX_DEPTH, "192.168.1." + Tunnels.MAX_DEPTH, -1);
        byte[] deeper = Ipv4Builder.ipv4("192.168.9.1", "192.168.9.2").payload(Tunnels.PROTO_IPIP, ip).build();
        PacketView v = decode(LinkBuilder.LINKTYPE_RAW, deeper);
        assertEquals(Weird.TUNNEL_TOO_DEEP, v.weird);
        assertEquals(PacketView.Kind.OTHER, v.kind);
        assertEquals("192.168.9.2", Ip.format(v.dstHi, v.dstLo), "the view is the outermost packet");
    }

    @Test
    void otherUdpIsNotATunnel() {
        PacketView v = decode(LinkBuilder.LINKTYPE_ETHERNET, overUdp(5000, new byte[12]));
        assertEquals(PacketView.Kind.UDP, v.kind);
        assertEquals(51000, v.srcPort);
        assertEquals(5000, v.dstPort);
        assertEquals(PacketView.TUNNEL_NONE, v.tunnelType);
        assertNull(v.weird);
    }
}
