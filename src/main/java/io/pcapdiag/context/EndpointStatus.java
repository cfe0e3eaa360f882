package io.pcapdiag.context;

/**
 * Whether an address is a ready endpoint of a Service, as the cluster lists it.
 *
 * @param ready listed in one of the Service's EndpointSlices with condition ready
 * @param fact  the sentence saying so, or that it is listed in none
 */
public record EndpointStatus(boolean ready, Fact fact) {
}
