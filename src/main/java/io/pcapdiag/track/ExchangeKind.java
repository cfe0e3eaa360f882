package io.pcapdiag.track;

/** What an exchange the tracker decides is; reports count each kind by itself. */
public enum ExchangeKind {
    /** A TCP connection attempt (a SYN and what answered it). */
    TCP("connection attempt", "connection attempts", "attempt", "attempts"),
    /** A DNS query, over UDP or TCP. */
    DNS("DNS query", "DNS queries", "query", "queries"),
    /** Another UDP exchange (a datagram and what answered it). */
    UDP("UDP exchange", "UDP exchanges", "exchange", "exchanges"),
    /** A TCP connection followed after its handshake (an answered attempt): what findings after the handshake count. */
    CONNECTION("connection", "connections", "connection", "connections");

    private final String singular;
    private final String plural;
    private final String shortSingular;
    private final String shortPlural;

    ExchangeKind(String singular, String plural, String shortSingular, String shortPlural) {
        this.singular = singular;
        this.plural = plural;
        this.shortSingular = shortSingular;
        this.shortPlural = shortPlural;
    }

    /** {@code 1 query}, {@code 3 attempts}: where the kind is said already. */
    public String shortCount(long n) {
        return n + " " + (n == 1 ? shortSingular : shortPlural);
    }

    /** {@code 1 DNS query}, {@code 2 DNS queries}. */
    public String count(long n) {
        return n + " " + (n == 1 ? singular : plural);
    }
}
