package io.pcapdiag.context;

/**
 * How the cluster lists an address among a Service's endpoints: its EndpointSlice conditions (discovery.k8s.io/v1
 * EndpointConditions), or that no EndpointSlice of the Service lists it.
 *
 * @param listed      one of the Service's EndpointSlices lists it (the conditions below are then its; otherwise all false)
 * @param ready       condition ready (unset counts as ready)
 * @param serving     condition serving (unset defers to ready): ready, whether or not it is terminating
 * @param terminating condition terminating (unset counts as not): its pod is being deleted
 * @param fact        the sentence saying so, or that it is listed in none
 */
public record EndpointStatus(boolean listed, boolean ready, boolean serving, boolean terminating, Fact fact) {
    /** As a source that knows readiness alone says it: listed, serving as it is ready, not terminating. */
    public EndpointStatus(boolean ready, Fact fact) {
        this(true, ready, ready, false, fact);
    }

    /** Listed ready, serving and not terminating: an endpoint kube-proxy sends new connections to. */
    public boolean live() {
        return listed && ready && serving && !terminating;
    }
}
