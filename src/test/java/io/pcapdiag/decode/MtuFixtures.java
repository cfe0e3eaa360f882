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
 * The frames behind path MTU discovery's evidence, each with what the decoder must make of it: SYNs whose options
 * have every shape (RFC 9293 3.1), and ICMP "fragmentation needed" / ICMPv6 "packet too big" errors quoting a
 * full-size segment (RFC 1191 4, RFC 4443 3.2). Raw IP (link type 101). {@link TcpOptionsTest} and {@link
 * IcmpMtuTest} check the decoder on them, {@link TsharkFieldsTest} checks Wireshark agrees on the same frames.
 */
final class MtuFixtures {
    static final int LINK_TYPE = 101;
    static final int CLIENT_PORT = 40001;
    static final int SEQ = 0x11223344;

    private MtuFixtures() {
    }

    /**
     * A SYN (or another segment) and what its decode must hold.
     *
     * @param capLen  the bytes captured (a short snap length), the whole packet when equal to its length
     * @param mss     the expected {@link PacketView#tcpMss}
     * @param weird   the expected anomaly, null for none
     * @param payload the expected {@link PacketView#tcpPayloadLength}
     */
    record Segment(String name, byte[] packet, int capLen, int flags, int mss, String weird, int payload) {
        @Override
        public String toString() {
            return name;
        }
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

    private static Segment whole(String name, byte[] packet, int flags, int mss, String weird, int payload) {
        return new Segment(name, packet, packet.length, flags, mss, weird, payload);
    }

    private static Segment syn(String name, String options, int mss, String weird) {
        return whole(name, v4(syn(options)), SYN, mss, weird, 0);
    }

    /** SACK option (kind 5) with {@code blocks} left/right edge pairs: length 2 + 8 * blocks (RFC 2018 3). */
    private static String sack(int blocks) {
        StringBuilder sb = new StringBuilder(String.format("05%02x", 2 + 8 * blocks));
        for (int i = 0; i < blocks; i++) {
            sb.append(String.format(" %08x %08x", 1000 * i + 1, 1000 * i + 501));
        }
        return sb.toString();
    }

    static List<Segment> segments() {
        List<Segment> l = new ArrayList<>();
        l.add(syn("no options", "", -1, null));
        l.add(syn("MSS alone", "020405b4", 1460, null));
        l.add(whole("Linux's SYN: MSS, SACK permitted, timestamps, NOP, window scale",
                v4(tcp(CLIENT_PORT, 80).seq(SEQ).flags(SYN).options(TcpBuilder.linuxSynOptions())), SYN, 1460, null, 0));
        l.add(whole("Linux's SYN-ACK", v4(tcp(80, CLIENT_PORT).seq(SEQ).ack(7).flags(SYN | ACK)
                .options(opts("020405a0 0402 080a 00000001 00bc614e 01 030307"))), SYN | ACK, 1440, null, 0));
        l.add(syn("window scale, SACK permitted, then MSS", "01030307 0402 020405b4", 1460, null));
        l.add(syn("NOP, NOP, timestamps, then MSS", "0101 080a 00bc614e 00000000 02040578", 1400, null));
        for (int blocks = 1; blocks <= 4; blocks++) {
            l.add(syn("SACK with " + blocks + " block(s) (length " + (2 + 8 * blocks) + "), then MSS",
                    sack(blocks) + " 020405a0", 1440, null));
        }
        l.add(syn("EOL, then padding that would read as MSS", "00 020405b4 000000", -1, null));
        l.add(syn("NOP, EOL, then padding that would read as MSS", "01 00 020405b4 00", -1, null));
        l.add(syn("MSS 0", "02040000", 0, null));
        l.add(syn("MSS 65535", "0204ffff", 65535, null));
        l.add(syn("two MSS options: the last", "020405b4 02040578", 1400, null));
        l.add(syn("MSS of length 3", "020305 01", -1, Weird.BAD_TCP_OPTION));
        l.add(syn("MSS of length 6", "020605b4 0000 0101", -1, Weird.BAD_TCP_OPTION));
        l.add(syn("length 0 before MSS", "0800 020405b4 0101", -1, Weird.BAD_TCP_OPTION));
        l.add(syn("length 1 before MSS", "0801 020405b4 0101", -1, Weird.BAD_TCP_OPTION));
        l.add(syn("MSS, then an option running past the data offset", "020405b4 080a0000", 1460, Weird.BAD_TCP_OPTION));
        l.add(syn("a kind whose length byte is past the data offset", "010101 08", -1, Weird.BAD_TCP_OPTION));
        l.add(whole("length 0, and the segment carries data", v4(syn("0800 0101").payload(new byte[100])), SYN, -1,
                Weird.BAD_TCP_OPTION, 100));
        // Data offset 6: the header ends after three NOPs and an MSS kind byte, the rest is payload, not options.
        l.add(whole("MSS cut by the data offset", v4(syn("010101 020405b4 00").dataOffsetWords(6)), SYN, -1,
                Weird.BAD_TCP_OPTION, 4));
        // Data offset 5: MSS bytes after a 20-byte header are payload; the walk does not look.
        l.add(whole("MSS bytes after a 20-byte header", v4(syn("020405b4").dataOffsetWords(5)), SYN, -1, null, 4));
        l.add(syn("data offset 60: 36 NOPs, then MSS", "01".repeat(36) + "020405b4", 1460, null));
        l.add(syn("data offset 60: MSS, then 36 bytes of EOL", "020405b4" + "00".repeat(36), 1460, null));
        l.add(syn("data offset 60: timestamps, then SACK with 3 blocks", "080a 00bc614e 00000000 " + sack(3) + " 0101", -1,
                null));
        l.add(whole("MSS on an ACK: not read", v4(tcp(CLIENT_PORT, 80).seq(SEQ).ack(1).flags(ACK).options(opts("020405b4"))),
                ACK, -1, null, 0));
        l.add(whole("length 0 on an ACK: not walked, not flagged",
                v4(tcp(CLIENT_PORT, 80).seq(SEQ).ack(1).flags(ACK).options(opts("0101 0800"))), ACK, -1, null, 0));
        l.add(whole("SACK with 4 blocks on an ACK", v4(tcp(CLIENT_PORT, 80).seq(SEQ).ack(1).flags(ACK).options(opts(sack(4)))),
                ACK, -1, null, 0));
        l.add(whole("IPv6 SYN with MSS 1440", Ipv6Builder.ipv6("fd00::18", "fd00::20").tcp(syn("020405a0 0402 080a"
                + " 00bc614e 00000000 01 030307")).build(), SYN, 1440, null, 0));
        // The snap length: Linux's SYN is 20 bytes of IP, 20 of TCP, then 020405b4 0402 080a...
        byte[] linux = v4(tcp(CLIENT_PORT, 80).seq(SEQ).flags(SYN).options(TcpBuilder.linuxSynOptions()));
        l.add(new Segment("snap length inside the MSS option", linux, 40 + 3, SYN, -1, null, 0));
        l.add(new Segment("snap length right after the MSS option", linux, 40 + 4, SYN, 1460, null, 0));
        l.add(new Segment("snap length inside the timestamps after MSS", linux, 40 + 10, SYN, 1460, null, 0));
        l.add(new Segment("snap length right after the fixed header", linux, 40, SYN, -1, null, 0));
        byte[] late = v4(syn("0402 01 01 020405b4"));
        l.add(new Segment("snap length inside SACK permitted, before MSS", late, 40 + 1, SYN, -1, null, 0));
        byte[] bad = v4(syn("0101 0800 020405b4"));
        l.add(new Segment("snap length before a length 0 byte", bad, 40 + 3, SYN, -1, null, 0));
        l.add(new Segment("snap length right after a length 0 byte", bad, 40 + 4, SYN, -1, Weird.BAD_TCP_OPTION, 0));
        return l;
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
