package io.pcapdiag.decode;

import static io.pcapdiag.testing.TcpBuilder.ACK;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static io.pcapdiag.testing.TcpBuilder.tcp;

import io.pcapdiag.testing.Buf;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.TcpBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The frames behind path MTU discovery's evidence, each with what the decoder must make of it: ICMP "fragmentation
 * needed" / ICMPv6 "packet too big" errors quoting a full-size segment (RFC 1191 4, RFC 4443 3.2). Raw IP (link type
 * 101). {@link IcmpMtuTest} checks the decoder on them.
 */
final class MtuFixtures {
    static final int LINK_TYPE = 101;
    static final int CLIENT_PORT = 40001;
    static final int SEQ = 0x11223344;

    private MtuFixtures() {
    }

    /**
     * An ICMP/ICMPv6 error and what its decode must hold.
     *
     * @param mtu          the expected {@link PacketView#icmpMtu}
     * @param quotedLength the expected {@link PacketView#quotedLength}
     * @param weird        the expected anomaly, null for none
     */
    record IcmpError(String name, byte[] packet, int capLen, int mtu, int quotedLength, String weird) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static byte[] opts(String hex) {
        return Buf.hex(hex);
    }

    private static byte[] v4(TcpBuilder t) {
        return Ipv4Builder.ipv4("10.244.0.18", "10.244.1.20").tcp(t).build();
    }

    private static TcpBuilder syn(String options) {
        return tcp(CLIENT_PORT, 80).seq(SEQ).flags(SYN).options(opts(options));
    }

    /** A 1500-byte IPv4 packet, DF set: a full-size segment of 1448 bytes of data with timestamps. */
    static byte[] fullSegment4() {
        return Ipv4Builder.ipv4("10.244.1.20", "10.244.0.18").dontFragment(true).tcp(tcp(80, CLIENT_PORT).seq(SEQ)
                .ack(1).flags(ACK).options(opts("0101080a 00bc614e 00000001")).payload(new byte[1448])).build();
    }

    /** A 1500-byte IPv6 packet: a full-size segment of 1440 bytes of data. */
    static byte[] fullSegment6() {
        return Ipv6Builder.ipv6("fd00::20", "fd00::18").tcp(tcp(80, CLIENT_PORT).seq(SEQ).ack(1).flags(ACK)
                .payload(new byte[1440])).build();
    }

    private static byte[] icmp4(int type, int code, int rest, byte[] quoted, int quoteLen) {
        return Ipv4Builder.ipv4("10.244.1.1", "10.244.1.20")
                .icmp(IcmpBuilder.message(type, code, rest, Arrays.copyOf(quoted, Math.min(quoteLen, quoted.length)))).build();
    }

    private static byte[] icmp6(int type, int code, int rest, byte[] quoted, int quoteLen) {
        return Ipv6Builder.ipv6("fd00::1", "fd00::20")
                .icmpv6(IcmpBuilder.message(type, code, rest, Arrays.copyOf(quoted, Math.min(quoteLen, quoted.length)))).build();
    }

    private static IcmpError whole(String name, byte[] packet, int mtu, int quotedLength, String weird) {
        return new IcmpError(name, packet, packet.length, mtu, quotedLength, weird);
    }

    /** Errors Wireshark reads as pcapdiag does (and {@link #icmpBeyondWireshark} those it shows otherwise). */
    static List<IcmpError> icmp() {
        byte[] seg4 = fullSegment4();
        byte[] seg6 = fullSegment6();
        byte[] syn4 = v4(syn("020405b4"));
        List<IcmpError> l = new ArrayList<>();
        // Linux quotes as much as fits in 576 bytes (icmp_send): 576 - 20 - 8 = 548.
        l.add(whole("frag needed, mtu 1450, quoting a 1500-byte segment in 548 bytes", icmp4(3, 4, 1450, seg4, 548), 1450,
                1500, null));
        l.add(whole("frag needed, mtu 0 (a router older than RFC 1191)", icmp4(3, 4, 0, seg4, 548), 0, 1500, null));
        l.add(whole("frag needed, RFC 792's quote: IP header and 8 bytes", icmp4(3, 4, 1450, seg4, 28), 1450, 1500, null));
        l.add(whole("frag needed, quote cut inside the quoted IP header", icmp4(3, 4, 1450, seg4, 19), 1450, -1,
                Weird.TRUNCATED_ICMP_QUOTE));
        l.add(whole("frag needed, no quote", icmp4(3, 4, 1400, seg4, 0), 1400, -1, Weird.TRUNCATED_ICMP_QUOTE));
        byte[] frag = icmp4(3, 4, 1450, seg4, 548);
        l.add(new IcmpError("frag needed, snap length 96 (the quote cut at 68 bytes)", frag, 96, 1450, 1500, null));
        l.add(new IcmpError("frag needed, snap length inside the quoted IP header", frag, 20 + 8 + 12, 1450, -1,
                Weird.TRUNCATED_ICMP_QUOTE));
        l.add(whole("port unreachable quoting a SYN: no MTU", icmp4(3, 3, 0, syn4, 576), -1, syn4.length, null));
        l.add(whole("host unreachable with its unused word set: no MTU", icmp4(3, 1, 0x05aa, syn4, 576), -1, syn4.length,
                null));
        l.add(whole("time exceeded: no MTU", icmp4(11, 0, 0, seg4, 548), -1, 1500, null));
        // RFC 4443 2.4 (c): as much of the packet as fits in the minimum IPv6 MTU, 1280 - 40 - 8 = 1232.
        l.add(whole("packet too big, mtu 1280, quoting a 1500-byte segment in 1232 bytes", icmp6(2, 0, 1280, seg6, 1232),
                1280, 1500, null));
        l.add(whole("packet too big, mtu 1450", icmp6(2, 0, 1450, seg6, 1232), 1450, 1500, null));
        l.add(whole("packet too big, quote cut before the seq", icmp6(2, 0, 1280, seg6, 40 + 6), 1280, 1500,
                Weird.TRUNCATED_ICMP_QUOTE));
        l.add(whole("packet too big, quote cut inside the quoted IPv6 header", icmp6(2, 0, 1280, seg6, 39), 1280, -1,
                Weird.TRUNCATED_ICMP_QUOTE));
        l.add(new IcmpError("packet too big, snap length 96", icmp6(2, 0, 1280, seg6, 1232), 96, 1280, 1500, null));
        l.add(whole("ICMPv6 port unreachable: no MTU", icmp6(1, 4, 0, seg6, 1232), -1, 1500, null));
        l.add(whole("ICMPv6 time exceeded: no MTU", icmp6(3, 0, 0, seg6, 1232), -1, 1500, null));
        return l;
    }

    /** Errors whose fields Wireshark shows differently: an MTU beyond what an int holds. */
    static List<IcmpError> icmpBeyondWireshark() {
        return List.of(whole("packet too big, mtu 2^32 - 1: saturated", icmp6(2, 0, 0xffffffff, fullSegment6(), 1232),
                Integer.MAX_VALUE, 1500, null));
    }
}
