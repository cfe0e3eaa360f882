package io.pcapdiag.live;

import static io.pcapdiag.testing.TcpBuilder.ACK;
import static io.pcapdiag.testing.TcpBuilder.FIN;
import static io.pcapdiag.testing.TcpBuilder.PSH;
import static io.pcapdiag.testing.TcpBuilder.RST;
import static io.pcapdiag.testing.TcpBuilder.SYN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;
import org.pcap4j.packet.namednumber.DataLinkType;

/**
 * The capture filter, compiled by the real libpcap (through pcap4j, on a dead handle: no privilege needed)
 * for every link type live capture meets, and run over packets built byte by byte: what the tracker needs
 * passes, mid-connection data and neighbour discovery do not.
 */
class CaptureFilterTest {
    /** libpcap's DLT_RAW on Linux (LINKTYPE_RAW, 101, is what files say; live handles and pcap_open_dead use 12). */
    private static final int DLT_RAW = 12;
    private static final String C4 = "10.244.0.18";
    private static final String S4 = "10.96.10.80";
    private static final String C6 = "2001:db8:244::18";
    private static final String S6 = "2001:db8:96::80";

    /** Packets by name, and whether the filter must keep them. */
    private static final Map<String, byte[]> KEEP = new LinkedHashMap<>();
    private static final Map<String, byte[]> DROP = new LinkedHashMap<>();

    @BeforeAll
    static void packets() {
        KEEP.put("v4 SYN", tcp4(SYN, new byte[0]));
        KEEP.put("v4 SYN-ACK", tcp4(SYN | ACK, new byte[0]));
        KEEP.put("v4 RST", tcp4(RST, new byte[0]));
        KEEP.put("v4 RST-ACK", tcp4(RST | ACK, new byte[0]));
        KEEP.put("v4 FIN-ACK", tcp4(FIN | ACK, new byte[0]));
        KEEP.put("v4 SYN with IP options", Ipv4Builder.ipv4(C4, S4).options(Ipv4Builder.recordRoute(3))
                .tcp(TcpBuilder.tcp(40000, 8080).seq(1000).flags(SYN)).build());
        byte[] syn4 = tcp4(SYN, new byte[0]);
        KEEP.put("v4 ICMP port unreachable", Ipv4Builder.ipv4(S4, C4)
                .icmp(IcmpBuilder.v4Unreachable(IcmpBuilder.V4_PORT_UNREACHABLE, syn4, 28)).build());
        KEEP.put("v4 ICMP time exceeded", Ipv4Builder.ipv4("10.0.0.1", C4)
                .icmp(IcmpBuilder.error(IcmpBuilder.V4_TIME_EXCEEDED, 0, syn4, 28)).build());
        KEEP.put("v6 SYN", tcp6(SYN, new byte[0]));
        KEEP.put("v6 SYN-ACK", tcp6(SYN | ACK, new byte[0]));
        KEEP.put("v6 RST-ACK", tcp6(RST | ACK, new byte[0]));
        KEEP.put("v6 FIN", tcp6(FIN | ACK, new byte[0]));
        byte[] syn6 = tcp6(SYN, new byte[0]);
        KEEP.put("v6 ICMPv6 port unreachable", Ipv6Builder.ipv6(S6, C6)
                .icmpv6(IcmpBuilder.v6Unreachable(IcmpBuilder.V6_PORT_UNREACHABLE, syn6, 80)).build());
        KEEP.put("v6 ICMPv6 time exceeded", Ipv6Builder.ipv6("2001:db8::1", C6)
                .icmpv6(IcmpBuilder.error(IcmpBuilder.V6_TIME_EXCEEDED, 0, syn6, 80)).build());
        KEEP.put("v6 SYN behind hop-by-hop", Ipv6Builder.ipv6(C6, S6).hopByHop(Ipv6Builder.routerAlert())
                .tcp(TcpBuilder.tcp(40000, 8080).seq(1000).flags(SYN)).build());
        KEEP.put("v6 SYN behind destination options", Ipv6Builder.ipv6(C6, S6).destOpts(new byte[6])
                .tcp(TcpBuilder.tcp(40000, 8080).seq(1000).flags(SYN)).build());

        byte[] data = "GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        DROP.put("v4 data", tcp4(PSH | ACK, data));
        DROP.put("v4 pure ACK", tcp4(ACK, new byte[0]));
        DROP.put("v4 ICMP echo", Ipv4Builder.ipv4(C4, S4).icmp(IcmpBuilder.v4Echo(1, 1)).build());
        DROP.put("v4 ICMP redirect", Ipv4Builder.ipv4("10.0.0.1", C4)
                .icmp(IcmpBuilder.error(IcmpBuilder.V4_REDIRECT, 1, syn4, 28)).build());
        DROP.put("v4 UDP", Ipv4Builder.ipv4(C4, S4).payload(Ipv4Builder.PROTO_UDP, new byte[] {0, 53, 0, 53, 0, 8, 0, 0}).build());
        DROP.put("v6 data", tcp6(PSH | ACK, data));
        DROP.put("v6 pure ACK", tcp6(ACK, new byte[0]));
        DROP.put("v6 neighbour solicitation", Ipv6Builder.ipv6(C6, "ff02::1:ff00:80")
                .icmpv6(IcmpBuilder.message(IcmpBuilder.V6_NEIGHBOR_SOLICIT, 0, 0, new byte[16])).build());
        DROP.put("v6 echo", Ipv6Builder.ipv6(C6, S6).icmpv6(IcmpBuilder.message(IcmpBuilder.V6_ECHO, 0, 0x10001, new byte[4])).build());
        DROP.put("v6 packet too big", Ipv6Builder.ipv6("2001:db8::1", C6)
                .icmpv6(IcmpBuilder.error(IcmpBuilder.V6_PACKET_TOO_BIG, 0, syn6, 80)).build());
        DROP.put("v6 later fragment", Ipv6Builder.ipv6(C6, S6).fragment(100, false, 7)
                .payload(Ipv6Builder.TCP, new byte[24]).build());
    }

    private static byte[] tcp4(int flags, byte[] payload) {
        return Ipv4Builder.ipv4(C4, S4).tcp(TcpBuilder.tcp(40000, 8080).seq(1000).ack(2000).flags(flags).payload(payload)).build();
    }

    private static byte[] tcp6(int flags, byte[] payload) {
        return Ipv6Builder.ipv6(C6, S6).tcp(TcpBuilder.tcp(40000, 8080).seq(1000).ack(2000).flags(flags).payload(payload)).build();
    }

    /** Link types live capture meets: Ethernet (eth0, cni0, veths), cooked v1/v2 (-i any), raw IP (tun, wireguard). */
    @ParameterizedTest
    @ValueSource(strings = {"EN10MB", "LINUX_SLL", "LINUX_SLL2", "RAW"})
    void keepsWhatTheTrackerNeedsAndNothingElse(String link) throws Exception {
        int dlt = switch (link) {
            case "EN10MB" -> LinkBuilder.LINKTYPE_ETHERNET;
            case "LINUX_SLL" -> LinkBuilder.LINKTYPE_LINUX_SLL;
            case "LINUX_SLL2" -> LinkBuilder.LINKTYPE_LINUX_SLL2;
            default -> DLT_RAW;
        };
        Function<byte[], byte[]> frame = switch (link) {
            case "EN10MB" -> LinkBuilder::ethernet;
            case "LINUX_SLL" -> ip -> LinkBuilder.sll(LinkBuilder.MAC_A, ip);
            case "LINUX_SLL2" -> ip -> LinkBuilder.sll2(LinkBuilder.MAC_A, ip);
            default -> ip -> ip;
        };
        BpfProgram bpf = compile(dlt, CaptureFilter.DEFAULT);
        List<String> wrong = new ArrayList<>();
        KEEP.forEach((name, ip) -> {
            if (!bpf.applyFilter(frame.apply(ip))) {
                wrong.add("dropped " + name);
            }
        });
        DROP.forEach((name, ip) -> {
            if (bpf.applyFilter(frame.apply(ip))) {
                wrong.add("kept " + name);
            }
        });
        bpf.free();
        assertEquals(List.of(), wrong, link);
    }

    /**
     * Why the filter has IPv6 terms of its own: libpcap's tcp[tcpflags] is IPv4-only. It compiles, but an
     * IPv6 SYN does not match it, and libpcap refuses "ip6 and tcp[...]" as matching nothing.
     */
    @Test
    void libpcapTcpFlagsMissIpv6() throws Exception {
        byte[] syn6 = LinkBuilder.ethernet(tcp6(SYN, new byte[0]));
        byte[] syn4 = LinkBuilder.ethernet(tcp4(SYN, new byte[0]));
        BpfProgram flags = compile(LinkBuilder.LINKTYPE_ETHERNET, "tcp[tcpflags] & tcp-syn != 0");
        assertTrue(flags.applyFilter(syn4));
        assertFalse(flags.applyFilter(syn6), "libpcap now handles tcp[] over IPv6: the filter could be simpler");
        PcapNativeException e = assertThrows(PcapNativeException.class,
                () -> compile(LinkBuilder.LINKTYPE_ETHERNET, "ip6 and tcp[tcpflags] & tcp-syn != 0"));
        assertTrue(e.getMessage().contains("rejects all packets"), e.getMessage());
        BpfProgram ours = compile(LinkBuilder.LINKTYPE_ETHERNET, CaptureFilter.TCP6);
        assertTrue(ours.applyFilter(syn6));
        flags.free();
        ours.free();
    }

    @Test
    void snaplenHoldsTheDeepestHeadersTheDecoderReads() {
        // -i any on IPv6: cooked v2 (20) + IPv6 (40) + hop-by-hop (8) + TCP with the longest options (60).
        assertTrue(CaptureFilter.DEFAULT_SNAPLEN >= 20 + 40 + 8 + 60);
        // An ICMPv6 error: cooked v2 + IPv6 + ICMPv6 header (8) + quoted IPv6 (40) + TCP ports and seq (8).
        assertTrue(CaptureFilter.DEFAULT_SNAPLEN >= 20 + 40 + 8 + 40 + 8);
    }

    static BpfProgram compile(int dlt, String filter) throws Exception {
        PcapHandle dead = Pcaps.openDead(DataLinkType.getInstance(dlt), 262_144);
        try {
            return dead.compileFilter(filter, BpfProgram.BpfCompileMode.OPTIMIZE, PcapHandle.PCAP_NETMASK_UNKNOWN);
        } finally {
            dead.close();
        }
    }
}
