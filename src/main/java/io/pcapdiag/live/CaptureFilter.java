package io.pcapdiag.live;

/**
 * The BPF filter live capture installs in the kernel: only the packets the tracker can use, for IPv4
 * and IPv6, so a busy node hands pcapdiag a small fraction of its traffic.
 *
 * <p>What passes:
 * <ul>
 *   <li>IPv4 TCP with SYN, RST or FIN set. SYN covers the SYN-ACK; RST answers a refused SYN; FIN is kept
 *       so a capture's last packets are its last conversations' ends, which puts the capture clock where
 *       an offline read of the written file would put it.</li>
 *   <li>IPv4 ICMP destination unreachable, time exceeded and parameter problem: the errors that quote a
 *       SYN (the types {@code decode.Icmp} treats as errors).</li>
 *   <li>IPv6 TCP with SYN, RST or FIN, and ICMPv6 destination unreachable, time exceeded and parameter
 *       problem, when the upper-layer header follows the fixed IPv6 header directly.</li>
 *   <li>Every IPv6 packet whose first next header is hop-by-hop (0), routing (43), AH (51) or destination
 *       options (60): BPF cannot walk an extension chain of unknown length, so those are kept whole and
 *       the decoder walks the chain. A fragment header (44) is not kept: TCP SYNs and ICMPv6 errors are
 *       never fragmented (an ICMPv6 error fits in the 1280-byte minimum MTU, RFC 4443 2.4(c)).</li>
 * </ul>
 *
 * <p>Why IPv6 needs its own terms: libpcap's {@code tcp[tcpflags]} and {@code icmp[icmptype]} compile
 * to IPv4-only code (they check ethertype 0x0800 and index the header through the IPv4 IHL); with IPv6,
 * libpcap refuses {@code ip6 and tcp[13] ...} ("expression rejects all packets"). So IPv6 offsets are absolute:
 * {@code ip6[6]} is the next header, the TCP flags byte is {@code ip6[40 + 13]} and the ICMPv6 type is
 * {@code ip6[40]}. Limitation: 802.1Q-tagged frames on a trunk interface do not match (capture the VLAN
 * sub-interface, or pass {@code --filter}).
 */
public final class CaptureFilter {
    /** IPv4: TCP segments with SYN, RST or FIN. libpcap skips non-first fragments here. */
    static final String TCP4 = "(tcp[tcpflags] & (tcp-syn|tcp-rst|tcp-fin) != 0)";
    /** IPv4: ICMP errors that quote a packet (RFC 792 types 3, 11, 12). */
    static final String ICMP4 = "(icmp[icmptype] == icmp-unreach or icmp[icmptype] == icmp-timxceed"
            + " or icmp[icmptype] == icmp-paramprob)";
    /** IPv6 without extension headers: next header TCP, flags byte at 40 + 13, FIN|SYN|RST = 0x07. */
    static final String TCP6 = "(ip6[6] == 6 and ip6[53] & 0x07 != 0)";
    /**
     * IPv6 without extension headers: ICMPv6 destination unreachable (1), time exceeded (3) and parameter
     * problem (4). Packet too big (2) is an error too (RFC 4443 2.1) but answers no SYN: left out, as the
     * decoder leaves it out.
     */
    static final String ICMP6 = "(ip6[6] == 58 and (ip6[40] == 1 or ip6[40] == 3 or ip6[40] == 4))";
    /** IPv6 with an extension header first: kept, the decoder walks the chain. */
    static final String EXT6 = "(ip6[6] == 0 or ip6[6] == 43 or ip6[6] == 51 or ip6[6] == 60)";

    /** The default filter. */
    public static final String DEFAULT = String.join(" or ", TCP4, ICMP4, TCP6, ICMP6, EXT6);

    /**
     * Bytes per packet kept by default: enough for a Linux cooked v2 header (20), IPv6 (40) with a few
     * extension headers, a TCP header with options (60), or an ICMPv6 error quoting IPv6 + TCP (8 + 40 + 20).
     * Application data is cut off: pcapdiag never stores payload unless asked ({@code --snaplen}).
     */
    public static final int DEFAULT_SNAPLEN = 200;

    private CaptureFilter() {
    }
}
