package io.pcapdiag.decode;

/**
 * Named anomalies, counted per capture and shown in the summary. The ids are stable: scripts may match them.
 * Truncation (ran out of captured bytes) and malformation (a value that cannot be right) are kept apart.
 */
public final class Weird {
    public static final String UNKNOWN_LINK_TYPE = "unknown_link_type";
    public static final String TRUNCATED_LINK = "truncated_link_header";
    public static final String TRUNCATED_IP = "truncated_IP";
    public static final String BAD_IP_VERSION = "bad_IP_version";
    public static final String BAD_IP_HEADER_LEN = "bad_IP_header_len";
    public static final String BAD_IP_TOTAL_LEN = "bad_IP_total_len";
    public static final String TRUNCATED_IPV6_EXT = "truncated_IPv6_extension_header";
    public static final String TRUNCATED_TCP = "truncated_TCP";
    public static final String BAD_TCP_HEADER_LEN = "bad_TCP_header_len";
    /**
     * A SYN's option whose length is below 2 or runs past the header's data offset, or an MSS option of another length
     * than 4. Like a malformed DNS message it leaves the packet around it standing: a TCP segment, its own fields read.
     */
    public static final String BAD_TCP_OPTION = "bad_TCP_option";
    public static final String TRUNCATED_ICMP = "truncated_ICMP";
    public static final String TRUNCATED_ICMP_QUOTE = "truncated_ICMP_quote";
    /** A tunnel header (VXLAN, Geneve, the inner Ethernet header) cut off by the captured length. */
    public static final String TRUNCATED_TUNNEL = "truncated_tunnel_header";
    /** A VXLAN header without its I flag, a Geneve header of an unknown version. */
    public static final String BAD_TUNNEL_HEADER = "bad_tunnel_header";
    /** The captured bytes end inside a DNS message (a short snaplen: tcpdump's {@code [|domain]}). */
    public static final String TRUNCATED_DNS = "truncated_DNS";
    /** A DNS message whose counts promise records, or whose name runs, past the message's own length. */
    public static final String DNS_BEYOND_MESSAGE = "DNS_record_beyond_message";
    /** A DNS label longer than 63 octets (or of a label type no message uses). */
    public static final String DNS_LABEL_TOO_LONG = "DNS_label_too_long";
    /** A DNS name longer than 255 octets on the wire. */
    public static final String DNS_NAME_TOO_LONG = "DNS_name_too_long";
    /** A DNS name whose compression pointers go on past {@code Dns.MAX_POINTERS}: a loop. */
    public static final String DNS_COMPRESSION_LOOP = "DNS_compression_loop";
    /** Tunnels nested deeper than the decoder follows. */
    public static final String TUNNEL_TOO_DEEP = "tunnel_nested_too_deep";

    private Weird() {
    }

    /** True for ids that mean "ran out of captured bytes", as opposed to a nonsensical value. */
    public static boolean isTruncation(String id) {
        return id.startsWith("truncated_");
    }
}
