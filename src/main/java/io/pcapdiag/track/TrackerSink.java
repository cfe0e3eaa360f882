package io.pcapdiag.track;

import io.pcapdiag.decode.Endpoint;

/** What the tracker tells the rest of the pipeline: attempts once decided, and answers it could not pair. */
public interface TrackerSink {
    /**
     * Each attempt once, when its outcome is decided. The attempt is the sink's for this call; the answer says whether
     * the sink holds on to it afterwards. Held, it is never reused, and of it the tracker changes only what it follows of
     * the connection after the handshake ({@link Attempt#established()}, until {@link #followed}); not held, the tracker
     * reuses the object for a later SYN (a node's capture decides hundreds of thousands of attempts, nearly all of which
     * nothing keeps).
     */
    boolean decided(Attempt attempt);

    /**
     * A connection followed after its handshake, once decided (it ended, went idle, was evicted, or the capture ended;
     * {@link Attempt#established()}): after {@link #decided} heard of the same attempt. The answer means what {@link
     * #decided}'s does; not held here, the connection is no longer the attempt's ({@link Attempt#established()} is null
     * from then on), whether or not {@link #decided} held the attempt.
     */
    default boolean followed(Attempt attempt) {
        return false;
    }

    /**
     * An ICMP error addressed to {@code destination} whose quote the capture cut before the ports: it
     * answers some connection of that address, but no telling which.
     */
    default void unpairedIcmp(Endpoint destination) {
    }

    /** A SYN-ACK, a RST with ACK or an ICMP error about a TCP connection that answers no attempt the tracker holds. */
    default void unmatchedAnswer() {
    }
}
