package io.pcapdiag.track;

/**
 * One connection attempt: identified by (client address, client port, ISN). Retransmissions, copies of
 * the SYN on other interfaces and its DNAT'ed copies are this same attempt.
 */
public final class Attempt {
    final long clientHi;
    final long clientLo;
    final int clientPort;
    final int isn;
    /** What the client dialed: the destination of the first sighting of the SYN (before any NAT). */
    final long targetHi;
    final long targetLo;
    final int targetPort;

    Sighting syn;
    long lastSynNanos;
    int retransmissions;
    /** The first DNAT'ed copy of the SYN (same client, port and ISN, other destination), if seen. */
    Sighting natCopy;
    boolean answeredByTarget;
    long answeredNanos;
    Sighting otherSynAck;
    Sighting reset;
    Sighting icmp;
    /** The client's RST to a SYN-ACK it had no socket for (seq = ISN+1). */
    Sighting clientReset;
    boolean evicted;
    Outcome outcome;
    /** Capture time after which the attempt is decided; pushed back by each retransmission. */
    long expiresAt;
    long queuedExpiry;

    Attempt(long clientHi, long clientLo, int clientPort, int isn, long targetHi, long targetLo, int targetPort) {
        this.clientHi = clientHi;
        this.clientLo = clientLo;
        this.clientPort = clientPort;
        this.isn = isn;
        this.targetHi = targetHi;
        this.targetLo = targetLo;
        this.targetPort = targetPort;
    }

    boolean is(long hi, long lo, int port, int seq) {
        return clientLo == lo && clientPort == port && isn == seq && clientHi == hi;
    }

    boolean isTarget(long hi, long lo, int port) {
        return targetLo == lo && targetPort == port && targetHi == hi;
    }

    public Endpoint client() {
        return Endpoint.address(clientHi, clientLo);
    }

    public int clientPort() {
        return clientPort;
    }

    public int isn() {
        return isn;
    }

    public Endpoint target() {
        return new Endpoint(targetHi, targetLo, targetPort);
    }

    public Sighting syn() {
        return syn;
    }

    public int retransmissions() {
        return retransmissions;
    }

    public Sighting natCopy() {
        return natCopy;
    }

    public Sighting otherSynAck() {
        return otherSynAck;
    }

    public Sighting reset() {
        return reset;
    }

    public Sighting icmp() {
        return icmp;
    }

    public Sighting clientReset() {
        return clientReset;
    }

    public Outcome outcome() {
        return outcome;
    }

    /** The packet that decided the outcome, or null when nothing answered. */
    public Sighting answer() {
        return switch (outcome) {
            case BYPASSED -> otherSynAck;
            case REFUSED -> reset;
            case REJECTED -> icmp;
            default -> null;
        };
    }

    /** Who answered: ip:port of a SYN-ACK or RST, the source address of an ICMP error; null when nobody did. */
    public Endpoint responder() {
        Sighting a = answer();
        return a == null ? null : a.source();
    }

    /** Time from the first SYN to the deciding answer, in nanoseconds, or -1. */
    public long rttNanos() {
        Sighting a = answer();
        return a == null ? -1 : a.nanos - syn.nanos;
    }
}
