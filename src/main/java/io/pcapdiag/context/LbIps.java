package io.pcapdiag.context;

import io.pcapdiag.decode.Endpoint;
import java.util.Optional;
import java.util.Set;

/** {@code --lb-ip}: LoadBalancer ingress IPs the user named. */
public final class LbIps implements Context {
    private final Set<Endpoint> addresses;

    /** @param addresses addresses without ports */
    public LbIps(Set<Endpoint> addresses) {
        this.addresses = Set.copyOf(addresses);
    }

    @Override
    public Optional<Fact> lbIngress(Endpoint address) {
        return addresses.contains(address.withoutPort())
                ? Optional.of(new Fact(Source.FLAG, address.address() + " is a LoadBalancer ingress IP (--lb-ip)"))
                : Optional.empty();
    }

    @Override
    public Optional<Fact> serviceAddress(Endpoint address) {
        return lbIngress(address);
    }
}
