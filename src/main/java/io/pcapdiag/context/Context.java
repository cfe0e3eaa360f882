package io.pcapdiag.context;

import io.pcapdiag.track.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one seam every rule and cause asks about addresses: "is A a backend of V:p?", "is S a LoadBalancer
 * ingress IP?". Several sources answer (the capture itself, {@code --lb-ip}, later a cluster snapshot and
 * the node's facts); each answer is a {@link Fact} naming where it came from, or empty when this source
 * does not know. Read-only for its users; a source that learns while packets flow (the capture) is only
 * read between packets, on the analysis thread.
 *
 * <p>Addresses without a port are {@code Endpoint.address(hi, lo)}; a Service is its address and port.
 */
public interface Context {
    /** Why {@code address} is a backend of the Service at {@code service} (V:p): it was DNAT'ed there, or it is listed. */
    default Optional<Fact> backendOf(Endpoint address, Endpoint service) {
        return Optional.empty();
    }

    /** Why {@code target} (D:p) is known to answer some client other than {@code client}. */
    default Optional<Fact> answersOthers(Endpoint target, Endpoint client) {
        return Optional.empty();
    }

    /** Why {@code address} is a LoadBalancer ingress IP of the cluster. */
    default Optional<Fact> lbIngress(Endpoint address) {
        return Optional.empty();
    }

    /**
     * When this source knows every LoadBalancer ingress IP of the cluster (a cluster snapshot with its
     * Services), the fact saying so: an address it does not list is then no LoadBalancer.
     */
    default Optional<Fact> lbIngressComplete() {
        return Optional.empty();
    }

    /** Why {@code address} is a Service address (a VIP): seen DNAT'ed or answered for locally, given, or listed. */
    default Optional<Fact> serviceAddress(Endpoint address) {
        return Optional.empty();
    }

    /** ICMP errors to {@code client} that the capture cut too short to pair with a SYN. */
    default long unpairedIcmpTo(Endpoint client) {
        return 0;
    }

    /** Several sources as one: each question goes to them in order, and the first that knows answers. */
    static Context of(List<Context> sources) {
        List<Context> all = List.copyOf(sources);
        return new Context() {
            private Optional<Fact> first(Function<Context, Optional<Fact>> q) {
                for (Context c : all) {
                    Optional<Fact> f = q.apply(c);
                    if (f.isPresent()) {
                        return f;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Fact> backendOf(Endpoint address, Endpoint service) {
                return first(c -> c.backendOf(address, service));
            }

            @Override
            public Optional<Fact> answersOthers(Endpoint target, Endpoint client) {
                return first(c -> c.answersOthers(target, client));
            }

            @Override
            public Optional<Fact> lbIngress(Endpoint address) {
                return first(c -> c.lbIngress(address));
            }

            @Override
            public Optional<Fact> lbIngressComplete() {
                return first(Context::lbIngressComplete);
            }

            @Override
            public Optional<Fact> serviceAddress(Endpoint address) {
                return first(c -> c.serviceAddress(address));
            }

            @Override
            public long unpairedIcmpTo(Endpoint client) {
                long n = 0;
                for (Context c : all) {
                    n += c.unpairedIcmpTo(client);
                }
                return n;
            }
        };
    }

    /** A context that knows nothing (tests, and a run without any). */
    static Context none() {
        return of(new ArrayList<>());
    }
}
