package io.pcapdiag.live;

import java.util.Collection;
import java.util.TreeSet;
import java.util.stream.Collectors;

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
 *       SYN or a UDP datagram (the types {@code decode.Icmp} treats as errors; the quoted protocol is not
 *       looked at, so a port unreachable answering a DNS query passes as one answering a SYN does).</li>
 *   <li>IPv6 TCP with SYN, RST or FIN, and ICMPv6 destination unreachable, time exceeded and parameter
 *       problem, when the upper-layer header follows the fixed IPv6 header directly.</li>
 *   <li>DNS: UDP and TCP to or from port 53 and any other port the cluster's DNS Service uses
 *       ({@link #of}), IPv4 and IPv6 (libpcap's {@code port} checks both; IPv6 when UDP or TCP follows
 *       the fixed header). Every segment of DNS over TCP passes, not only SYN/RST/FIN: its messages are
 *       its data. Of a fragmented IPv4 datagram the first fragment passes (libpcap's {@code port} skips
 *       later ones): it holds the message's header and question.</li>
 *   <li>Every IPv6 packet whose first next header is hop-by-hop (0), routing (43), AH (51) or destination
 *       options (60): BPF cannot walk an extension chain of unknown length, so those are kept whole and
 *       the decoder walks the chain. A fragment header (44) is not kept: TCP SYNs and ICMPv6 errors are
 *       never fragmented (an ICMPv6 error fits in the 1280-byte minimum MTU, RFC 4443 2.4(c)).</li>
 * </ul>
 *
 * <p>With {@code live --established} ({@link #of(Collection, boolean)}) the tracker follows connections past
 * the handshake, and a pure ACK or a data segment is evidence there (the ACK that never comes is what
 * {@code pmtu-blackhole} is made of). So every TCP segment passes instead of SYN, RST and FIN alone: IPv4 TCP
 * but its later fragments, which hold no TCP header (the decoder skips them), and IPv6 TCP when TCP follows
 * the fixed header, as above. ICMPv6 packet too big passes too: it is what tells a sender its segments
 * are too large for the path (RFC 8201); IPv4's counterpart, destination unreachable code 4 "fragmentation
 * needed" (RFC 1191), already passes as an ICMP error. The rest is the handshake filter's, DNS included.
 *
 * <p>Why IPv6 needs its own terms: libpcap's {@code tcp[tcpflags]} and {@code icmp[icmptype]} compile
 * to IPv4-only code (they check ethertype 0x0800 and index the header through the IPv4 IHL); with IPv6,
 * libpcap refuses {@code ip6 and tcp[13] ...} ("expression rejects all packets"). So IPv6 offsets are absolute:
 * {@code ip6[6]} is the next header, the TCP flags byte is {@code ip6[40 + 13]} and the ICMPv6 type is
 * {@code ip6[40]}. Limitations: 802.1Q-tagged frames on a trunk interface do not match (capture the VLAN
 * sub-interface, or pass {@code --filter}); nor do packets inside a VXLAN, Geneve or IP-in-IP tunnel, which
 * the filter sees by their outer header only (capture the interfaces inside the overlay, cni0 and the
 * pods' veths, where the kernel has taken the tunnel header off).
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
     * problem (4). Packet too big (2) is an error too (RFC 4443 2.1) but answers no SYN: left out of the
     * handshake filter ({@link #PTB6} has it).
     */
    static final String ICMP6 = "(ip6[6] == 58 and (ip6[40] == 1 or ip6[40] == 3 or ip6[40] == 4))";
    /**
     * {@code --established}, IPv4: every TCP segment of an unfragmented datagram or a first fragment (a later
     * fragment's offset field is not 0, and it holds no TCP header).
     */
    static final String ALL_TCP4 = "(ip proto 6 and ip[6:2] & 0x1fff == 0)";
    /** {@code --established}, IPv6 without extension headers: every TCP segment. */
    static final String ALL_TCP6 = "(ip6[6] == 6)";
    /** {@code --established}, IPv6 without extension headers: ICMPv6 packet too big (RFC 4443 3.1). */
    static final String PTB6 = "(ip6[6] == 58 and ip6[40] == 2)";
    /** IPv6 with an extension header first: kept, the decoder walks the chain. */
    static final String EXT6 = "(ip6[6] == 0 or ip6[6] == 43 or ip6[6] == 51 or ip6[6] == 60)";
    /** The DNS port (RFC 1035 4.2.1), kept whatever the context says. */
    static final int DNS_PORT = 53;

    /** The default filter: DNS on port 53 only. */
    public static final String DEFAULT = of(java.util.List.of());
    /** The default filter of {@code live --established}: DNS on port 53 only. */
    public static final String ESTABLISHED = of(java.util.List.of(), true);

    /**
     * Bytes per packet kept by default: the headers and a whole DNS message of the size EDNS0 resolvers offer,
     * 1232 bytes (DNS Flag Day 2020; unbound's and CoreDNS's default, and a server cuts a longer answer to the
     * size offered, with TC set): Linux cooked v2 (20) + IPv6 (40) + up to 100 bytes of extension headers +
     * UDP (8) + 1232 = 1400. Why the whole message and not just its start: the question and the header's rcode
     * sit in its first 12 + 255 + 4 bytes, but the EDNS0 OPT record, which holds the rcode's upper bits, comes
     * last, and a message cut short is counted as truncated_DNS. The handshake path needs 148 (cooked v2 + IPv6
     * + hop-by-hop + TCP with the longest options). What this costs: a packet kept for its headers carries up
     * to this many bytes of what follows them, so a FIN or RST segment's data and an ICMP error's quote are
     * kept up to 1400 bytes (pass {@code --snaplen 200} for headers only; then DNS answers beyond it are cut).
     * Bounded: {@link LiveCapture#QUEUE_CAPACITY} packets waiting for the analysis hold at most 92 MB.
     *
     * <p>{@code --established} keeps this default. Of a data segment the tracker needs the headers alone (the
     * decoder takes the payload's length from the IP header, so a segment cut short still says its size), but one
     * snap length serves a whole handle, and a lower one would cut the DNS answers this one is chosen for. What it
     * costs: a bulk transfer's full-size segments (1514 bytes on a 1500-byte MTU) now pass, each kept at up to
     * 1400 bytes, so the 92 MB bound above is what a busy node reaches whenever the analysis falls behind (it is
     * reached only by DNS answers and ICMP quotes without the option). The kernel buffer fills faster too: libpcap's
     * ring in immediate mode (TPACKET_V2) has slots of the snap length whatever a packet's size, so the default
     * 4 MiB ({@code --buffer-size}) holds about 2,800 packets, what a 1 Gbit/s bulk transfer sends in 35 ms.
     * {@code --snaplen 200} keeps the headers only, and 5 times as many packets in the same buffer (DNS answers
     * past it are cut and counted as truncated).
     */
    public static final int DEFAULT_SNAPLEN = 1400;

    private CaptureFilter() {
    }

    /**
     * The filter for a cluster whose DNS Service listens on {@code dnsPorts} besides 53 (its Service ports and
     * target ports; none known: 53 alone).
     *
     * @throws IllegalArgumentException for a port outside 1-65535
     */
    public static String of(Collection<Integer> dnsPorts) {
        return of(dnsPorts, false);
    }

    /**
     * The filter for a cluster whose DNS Service listens on {@code dnsPorts} besides 53; with {@code established}
     * ({@code live --established}), every TCP segment and ICMPv6 packet too big pass too.
     *
     * @throws IllegalArgumentException for a port outside 1-65535
     */
    public static String of(Collection<Integer> dnsPorts, boolean established) {
        TreeSet<Integer> ports = new TreeSet<>(dnsPorts);
        ports.add(DNS_PORT);
        if (ports.first() < 1 || ports.last() > 65535) {
            throw new IllegalArgumentException("DNS ports must be 1-65535: " + ports);
        }
        String dns = "((udp or tcp) and (" + ports.stream().map(p -> "port " + p).collect(Collectors.joining(" or ")) + "))";
        if (established) {
            return String.join(" or ", ALL_TCP4, ICMP4, ALL_TCP6, ICMP6, PTB6, dns, EXT6);
        }
        return String.join(" or ", TCP4, ICMP4, TCP6, ICMP6, dns, EXT6);
    }
}
