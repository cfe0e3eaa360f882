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
    public static final String TRUNCATED_ICMP = "truncated_ICMP";
    public static final String TRUNCATED_ICMP_QUOTE = "truncated_ICMP_quote";

    private Weird() {
    }

    /** True for ids that mean "ran out of captured bytes", as opposed to a nonsensical value. */
    public static boolean isTruncation(String id) {
        return id.startsWith("truncated_");
    }
}
