package io.pcapdiag.context;

import io.pcapdiag.decode.Endpoint;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToLongFunction;

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
    /** Whether this source reads the cluster or the node (so a cause it cannot judge is really unknown). */
    default boolean informs() {
        return false;
    }

    /** Why {@code address} is a backend of the Service at {@code service} (V:p): it was DNAT'ed there, or it is listed. */
    default Optional<Fact> backendOf(Endpoint address, Endpoint service) {
        return Optional.empty();
    }

    /**
     * Whether the cluster lists {@code address} as a ready endpoint of the Service at {@code service} (V:p), and the
     * fact; empty when the source does not know the Service.
     */
    default Optional<EndpointStatus> endpointStatus(Endpoint address, Endpoint service) {
        return Optional.empty();
    }

    /**
     * The same among the Service ports of {@code protocol} (TCP or UDP), with the endpoint's conditions (ready,
     * serving, terminating); empty when the source does not know the Service.
     */
    default Optional<EndpointStatus> endpointStatus(Endpoint address, Endpoint service, String protocol) {
        return "UDP".equals(protocol) ? endpointStatus(address, service) : Optional.empty();
    }

    /** Every endpoint the cluster lists for the Service port at {@code service} (V:p) of {@code protocol}; empty when unknown. */
    default List<EndpointStatus> endpoints(Endpoint service, String protocol) {
        return List.of();
    }

    /**
     * Every Service port of {@code protocol} whose endpoints list {@code backend} (address:port), with its conditions
     * there: what a connection the capture saw already DNAT'ed went through. Empty when none does or the source does
     * not know.
     */
    default List<EndpointStatus> listings(Endpoint backend, String protocol) {
        return List.of();
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

    /**
     * What the capture shows of DNS queries {@code server} itself sent (a DNS pod forwarding upstream); empty when
     * it sent none.
     */
    default Optional<DnsUpstream> dnsUpstream(Endpoint server) {
        return Optional.empty();
    }

    /** The DNS settings (dnsPolicy, dnsConfig) of the pod at {@code address}, when the cluster lists it. */
    default Optional<PodDnsFacts> podDns(Endpoint address) {
        return Optional.empty();
    }

    /** The ports of the cluster DNS Services (kube-dns's 53); empty when no source knows them. */
    default java.util.SortedSet<Integer> dnsPorts() {
        return java.util.Collections.emptySortedSet();
    }

    /** Why {@code vp} is the cluster DNS Service. */
    default Optional<Fact> dnsService(Endpoint vp) {
        return Optional.empty();
    }

    /** ICMP errors to {@code client} that the capture cut too short to pair with a SYN. */
    default long unpairedIcmpTo(Endpoint client) {
        return 0;
    }

    /** Attempts to {@code target} (address:port) decided so far, whatever their outcome. */
    default long attemptsTo(Endpoint target) {
        return 0;
    }

    /**
     * The capture's decided attempts, how many of them got any answer, how many answers paired with no attempt, and how
     * many targets the attempts went to ({@link AnswerCounts}).
     */
    default AnswerCounts answerCounts() {
        return AnswerCounts.NONE;
    }

    // ---------------------------------------------------------------- names and the cluster

    /** The object {@code e} belongs to: with a port, a Service's address first; else (or then) a pod or a node. */
    default Optional<Ref> ref(Endpoint e) {
        return Optional.empty();
    }

    /** The same, where a Service port is looked up among those of {@code protocol} (TCP or UDP). */
    default Optional<Ref> ref(Endpoint e, String protocol) {
        return ref(e);
    }

    /** Why {@code address} is a Node's own address (its InternalIP or ExternalIP), when the cluster lists it. */
    default Optional<Fact> nodeAddress(Endpoint address) {
        return Optional.empty();
    }

    /** The node {@code address} belongs to: a pod's node, or the node holding it; for inferring the capture's node. */
    default Optional<String> nodeOf(Endpoint address) {
        return Optional.empty();
    }

    /** The Service behind {@code vp} (address:port), or the Service holding the address when the port is none of its. */
    default Optional<ServiceFacts> service(Endpoint vp) {
        return Optional.empty();
    }

    /** The same among the Service ports of {@code protocol} (TCP or UDP). */
    default Optional<ServiceFacts> service(Endpoint vp, String protocol) {
        return service(vp);
    }

    /**
     * The Service whose LoadBalancer ingress IPs include {@code address}, with that ingress's
     * {@link ServiceFacts#lbIpMode() ipMode} (VIP when unset; Proxy: kube-proxy does not bind it).
     */
    default Optional<ServiceFacts> lbService(Endpoint address) {
        return Optional.empty();
    }

    /** Whether the cluster's NetworkPolicies let {@code client} reach {@code target} (address:port of a pod) over TCP. */
    default Optional<PolicyVerdict> policy(Endpoint client, Endpoint target) {
        return Optional.empty();
    }

    /** The same over {@code protocol}: TCP or UDP (a source that knows only TCP answers for TCP alone). */
    default Optional<PolicyVerdict> policy(Endpoint client, Endpoint target, String protocol) {
        return "TCP".equals(protocol) ? policy(client, target) : Optional.empty();
    }

    /** kube-proxy's mode (iptables, ipvs, nftables), from its ConfigMap or its :10249/proxyMode on the node. */
    default Optional<Reading> proxyMode() {
        return Optional.empty();
    }

    /** The name of the node the capture was taken on, and why pcapdiag thinks so (--node, node facts, inferred). */
    default Optional<Reading> captureNode() {
        return Optional.empty();
    }

    // ---------------------------------------------------------------- the node

    /** A sysctl of the capture's node, e.g. {@code net.bridge.bridge-nf-call-iptables}. */
    default Optional<Reading> sysctl(String key) {
        return Optional.empty();
    }

    /**
     * Whether bridged IPv4 (IPv6) traffic on the bridge {@code client} sits on reaches iptables (ip6tables):
     * value "1" or "0" (br_netfilter not loaded counts as 0); subject the bridge.
     */
    default Optional<Reading> bridgedToIptables(Endpoint client, int ifIndex) {
        return Optional.empty();
    }

    /** The hairpin mode (0/1) of the bridge port {@code client} sits behind; {@code ifIndex} is where its SYN was seen (-1: unknown). */
    default Optional<Reading> hairpin(Endpoint client, int ifIndex) {
        return Optional.empty();
    }

    /**
     * Whether {@code address} is one of the capture's node's own addresses: value the interface holding it,
     * null when the node facts list it on no interface.
     */
    default Optional<Reading> localAddress(Endpoint address) {
        return Optional.empty();
    }

    /**
     * The interface a SYN dialing {@code dialed} came in on, inferred from the node's facts when the capture cannot say
     * (a one-interface pcap): the interface holding that address; value and subject its name. Empty when no
     * interface that receives packets holds it.
     */
    default Optional<Reading> ingressFor(Endpoint dialed) {
        return Optional.empty();
    }

    /**
     * The reverse-path filter in force where a packet arriving on {@code iface} enters IPv4 (the bridge, for a bridge
     * port): value 0 (off), 1 (strict) or 2 (loose), the higher of conf.all and conf.IFACE; subject that device.
     */
    default Optional<Reading> rpFilter(String iface) {
        return Optional.empty();
    }

    /**
     * Whether packets arriving on {@code iface} (null: on any interface) may carry one of the node's own addresses as
     * source (accept_local): value "1" or "0".
     */
    default Optional<Reading> acceptLocal(String iface) {
        return Optional.empty();
    }

    /** The release of the capture's node's kernel ({@code uname -r}). */
    default Optional<Reading> kernelRelease() {
        return Optional.empty();
    }

    /**
     * For a SYN whose ingress is unknown: value "0" when no interface of the node filters by reverse path, the lowest
     * mode when every interface filters loosely (2 or more); empty otherwise or when unknown.
     */
    default Optional<Reading> rpFilterEverywhere() {
        return Optional.empty();
    }

    /**
     * The interface the node's routes send a packet to {@code source} out of: value that device, null when no route
     * leads back to it; subject the address. Empty when the routes are unknown.
     */
    default Optional<Reading> routeBack(Endpoint source) {
        return Optional.empty();
    }

    /** How much a node counter (nstat or conntrack statistics name) rose over the node facts' sample (value: the rise). */
    default Optional<Reading> counterRise(String counter) {
        return Optional.empty();
    }

    /** The MTU of the capture's node's interface {@code iface}: value the MTU, subject the interface. */
    default Optional<Reading> interfaceMtu(String iface) {
        return Optional.empty();
    }

    /**
     * The largest MTU among the pods' host-side veths of the capture's node (for a pod whose own veth the capture does
     * not name): value the MTU, subject that veth.
     */
    default Optional<Reading> largestPodMtu() {
        return Optional.empty();
    }

    /**
     * The overlay tunnel the capture's node sends pods' packets to {@code destination} through, with its MTU, overhead
     * and underlay; {@link TunnelFacts#device()} null when they leave it unencapsulated. Empty when unknown.
     */
    default Optional<TunnelFacts> tunnel(Endpoint destination) {
        return Optional.empty();
    }

    /**
     * The firewall rules of the capture's node that drop what conntrack marks INVALID and see packets of the family
     * ({@code ipv6}): value the rules, one a line, or null when there is none; empty when unknown.
     */
    default Optional<Reading> invalidDropRules(boolean ipv6) {
        return Optional.empty();
    }

    /** The name of the capture's node's interface {@code ifIndex}. */
    default Optional<String> interfaceName(int ifIndex) {
        return Optional.empty();
    }

    /**
     * The interfaces a packet to {@code destination} leaves the capture's node through, in the order it
     * crosses them (its routes, bridges and neighbours): {@code [cni0, veth-b]}, {@code [flannel.1, eth0]};
     * empty when the node's topology is unknown.
     */
    default List<String> expectedPath(Endpoint destination) {
        return List.of();
    }

    /**
     * What speaks for {@code node} (a capture's {@code --label}), or for the capture's own node when null: node facts
     * answer only for their own node (interface indexes, routes and addresses are each node's), the cluster for all.
     */
    default Context forNode(String node) {
        return this;
    }

    /** Several sources as one: each question goes to them in order, and the first that knows answers; counts add up. */
    static Context of(List<Context> sources) {
        List<Context> all = List.copyOf(sources);
        return new Context() {
            /** The first source's answer to {@code question}, in the order the sources were given. */
            private <T> Optional<T> first(Function<Context, Optional<T>> question) {
                for (Context c : all) {
                    Optional<T> answer = question.apply(c);
                    if (answer.isPresent()) {
                        return answer;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<EndpointStatus> endpointStatus(Endpoint address, Endpoint service) {
                return first(c -> c.endpointStatus(address, service));
            }

            @Override
            public Optional<EndpointStatus> endpointStatus(Endpoint address, Endpoint service, String protocol) {
                return first(c -> c.endpointStatus(address, service, protocol));
            }

            @Override
            public List<EndpointStatus> endpoints(Endpoint service, String protocol) {
                return firstNonEmpty(c -> c.endpoints(service, protocol));
            }

            @Override
            public List<EndpointStatus> listings(Endpoint backend, String protocol) {
                return firstNonEmpty(c -> c.listings(backend, protocol));
            }

            /** The first source's non-empty list in answer to {@code question}. */
            private <T> List<T> firstNonEmpty(Function<Context, List<T>> question) {
                for (Context c : all) {
                    List<T> answer = question.apply(c);
                    if (!answer.isEmpty()) {
                        return answer;
                    }
                }
                return List.of();
            }

            @Override
            public Optional<PodDnsFacts> podDns(Endpoint address) {
                return first(c -> c.podDns(address));
            }

            @Override
            public java.util.SortedSet<Integer> dnsPorts() {
                return all.stream().map(Context::dnsPorts).filter(p -> !p.isEmpty()).findFirst()
                        .orElse(java.util.Collections.emptySortedSet());
            }

            @Override
            public Optional<Fact> dnsService(Endpoint vp) {
                return first(c -> c.dnsService(vp));
            }

            @Override
            public Optional<DnsUpstream> dnsUpstream(Endpoint server) {
                return first(c -> c.dnsUpstream(server));
            }

            private long sum(ToLongFunction<Context> count) {
                return all.stream().mapToLong(count).sum();
            }

            @Override
            public boolean informs() {
                return all.stream().anyMatch(Context::informs);
            }

            @Override
            public Context forNode(String node) {
                return node == null ? this : of(all.stream().map(c -> c.forNode(node)).toList());
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
                return sum(c -> c.unpairedIcmpTo(client));
            }

            @Override
            public long attemptsTo(Endpoint target) {
                return sum(c -> c.attemptsTo(target));
            }

            @Override
            public AnswerCounts answerCounts() {
                return all.stream().map(Context::answerCounts).reduce(AnswerCounts.NONE, AnswerCounts::plus);
            }

            @Override
            public Optional<Ref> ref(Endpoint e) {
                return first(c -> c.ref(e));
            }

            @Override
            public Optional<Ref> ref(Endpoint e, String protocol) {
                return first(c -> c.ref(e, protocol));
            }

            @Override
            public Optional<Fact> nodeAddress(Endpoint address) {
                return first(c -> c.nodeAddress(address));
            }

            @Override
            public Optional<String> nodeOf(Endpoint address) {
                return first(c -> c.nodeOf(address));
            }

            @Override
            public Optional<ServiceFacts> service(Endpoint vp) {
                return first(c -> c.service(vp));
            }

            @Override
            public Optional<ServiceFacts> service(Endpoint vp, String protocol) {
                return first(c -> c.service(vp, protocol));
            }

            @Override
            public Optional<ServiceFacts> lbService(Endpoint address) {
                return first(c -> c.lbService(address));
            }

            @Override
            public Optional<PolicyVerdict> policy(Endpoint client, Endpoint target) {
                return first(c -> c.policy(client, target));
            }

            @Override
            public Optional<PolicyVerdict> policy(Endpoint client, Endpoint target, String protocol) {
                return first(c -> c.policy(client, target, protocol));
            }

            @Override
            public Optional<Reading> proxyMode() {
                return first(Context::proxyMode);
            }

            @Override
            public Optional<Reading> captureNode() {
                return first(Context::captureNode);
            }

            @Override
            public Optional<Reading> sysctl(String key) {
                return first(c -> c.sysctl(key));
            }

            @Override
            public Optional<Reading> bridgedToIptables(Endpoint client, int ifIndex) {
                return first(c -> c.bridgedToIptables(client, ifIndex));
            }

            @Override
            public Optional<Reading> hairpin(Endpoint client, int ifIndex) {
                return first(c -> c.hairpin(client, ifIndex));
            }

            @Override
            public Optional<Reading> localAddress(Endpoint address) {
                return first(c -> c.localAddress(address));
            }

            @Override
            public Optional<Reading> ingressFor(Endpoint dialed) {
                return first(c -> c.ingressFor(dialed));
            }

            @Override
            public Optional<Reading> rpFilter(String iface) {
                return first(c -> c.rpFilter(iface));
            }

            @Override
            public Optional<Reading> acceptLocal(String iface) {
                return first(c -> c.acceptLocal(iface));
            }

            @Override
            public Optional<Reading> kernelRelease() {
                return first(Context::kernelRelease);
            }

            @Override
            public Optional<Reading> rpFilterEverywhere() {
                return first(Context::rpFilterEverywhere);
            }

            @Override
            public Optional<Reading> routeBack(Endpoint source) {
                return first(c -> c.routeBack(source));
            }

            @Override
            public Optional<Reading> counterRise(String counter) {
                return first(c -> c.counterRise(counter));
            }

            @Override
            public Optional<String> interfaceName(int ifIndex) {
                return first(c -> c.interfaceName(ifIndex));
            }

            @Override
            public Optional<Reading> interfaceMtu(String iface) {
                return first(c -> c.interfaceMtu(iface));
            }

            @Override
            public Optional<Reading> largestPodMtu() {
                return first(Context::largestPodMtu);
            }

            @Override
            public Optional<TunnelFacts> tunnel(Endpoint destination) {
                return first(c -> c.tunnel(destination));
            }

            @Override
            public Optional<Reading> invalidDropRules(boolean ipv6) {
                return first(c -> c.invalidDropRules(ipv6));
            }

            @Override
            public List<String> expectedPath(Endpoint destination) {
                return all.stream().map(c -> c.expectedPath(destination)).filter(p -> !p.isEmpty()).findFirst()
                        .orElse(List.of());
            }
        };
    }

    /** A context that knows nothing (tests, and a run without any). */
    static Context none() {
        return of(List.of());
    }
}
