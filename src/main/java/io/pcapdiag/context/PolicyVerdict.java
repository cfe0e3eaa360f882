package io.pcapdiag.context;

import java.util.List;

/**
 * What the cluster's NetworkPolicies say about a connection from a client to a target pod and port.
 *
 * @param admitted true when no policy isolates the target (or one admits the client), false when a policy
 *                 selects the target and none of the rules of the selecting policies admits the client
 * @param fact     the sentence that says which policies, with its source
 * @param fix      a command that admits the client (a NetworkPolicy to apply), or null when admitted
 * @param blocking the policies ({@code namespace/name}) that select a pod of the connection and admit it in no rule:
 *                 the isolation a fix opens; empty when admitted
 */
public record PolicyVerdict(boolean admitted, Fact fact, String fix, List<String> blocking) {
    public PolicyVerdict {
        blocking = List.copyOf(blocking);
    }
}
