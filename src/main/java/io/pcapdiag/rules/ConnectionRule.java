package io.pcapdiag.rules;

import io.pcapdiag.track.Attempt;

/**
 * A pattern decided from one connection followed after its handshake, once the tracker decides the connection
 * ({@link Attempt#established()} is not null then, and never evicted: an evicted connection is no finding).
 */
interface ConnectionRule extends Rule {
    boolean matches(Attempt a);

    /** Who the finding's packets single out (the wrong source, the sender of the lost segment, the ICMP's source). */
    io.pcapdiag.decode.Endpoint responder(Attempt a);
}
