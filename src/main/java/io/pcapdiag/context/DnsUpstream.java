package io.pcapdiag.context;

/**
 * What the capture shows of the DNS queries an address sent itself (a DNS pod forwarding upstream).
 *
 * @param failed whether one of them was unanswered or answered SERVFAIL or REFUSED
 * @param fact   the sentence saying so, citing the first that failed
 */
public record DnsUpstream(boolean failed, Fact fact) {
}
