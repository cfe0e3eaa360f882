package io.pcapdiag.track;

/** What an exchange the tracker decides is; reports count each kind by itself. */
public enum ExchangeKind {
    /** A TCP connection attempt (a SYN and what answered it). */
    TCP("connection attempt", "connection attempts"),
    /** A DNS query over UDP. */
    DNS("DNS query", "DNS queries"),
    /** Another UDP exchange (a datagram and what answered it). */
    UDP("UDP exchange", "UDP exchanges");

    private final String singular;
    private final String plural;

    ExchangeKind(String singular, String plural) {
        this.singular = singular;
        this.plural = plural;
    }

    /** {@code 1 DNS query}, {@code 2 DNS queries}. */
    public String count(long n) {
        return n + " " + (n == 1 ? singular : plural);
    }
}
