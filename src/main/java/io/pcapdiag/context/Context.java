package io.pcapdiag.context;

import io.pcapdiag.track.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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

    /** The node {@code address} belongs to: a pod's node, or the node holding it; for inferring the capture's node. */
    default Optional<String> nodeOf(Endpoint address) {
        return Optional.empty();
    }

    /** The Service behind {@code vp} (address:port), or the Service holding the address when the port is none of its. */
    default Optional<ServiceFacts> service(Endpoint vp) {
        return Optional.empty();
    }

    /**
     * The Service whose LoadBalancer ingress IPs include {@code address}, with that ingress's
     * {@link ServiceFacts#lbIpMode() ipMode} (VIP when unset; Proxy: kube-proxy does not bind it).
     */
    default Optional<ServiceFacts> lbService(Endpoint address) {
        return Optional.empty();
    }

    /** Whether the cluster's NetworkPolicies let {@code client} reach {@code target} (address:port of a pod). */
    default Optional<PolicyVerdict> policy(Endpoint client, Endpoint target) {
        return Optional.empty();
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

    /** How much a node counter (nstat or conntrack statistics name) rose over the node facts' sample (value: the rise). */
    default Optional<Reading> counterRise(String counter) {
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

    /**
     * Several sources as one: each question goes to them in order, and the first that knows answers. Loops, not a
     * lambda per question: analyze links none (NoLambdaLinkedTest).
     */
    static Context of(List<Context> sources) {
        List<Context> all = List.copyOf(sources);
        return new Context() {
            @Override
            public boolean informs() {
                for (Context c : all) { // asked per finding: a loop, not a stream (see JsonReporter.hops)
                    if (c.informs()) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public Context forNode(String node) {
                if (node == null) {
                    return this;
                }
                List<Context> each = new ArrayList<>(all.size());
                for (Context c : all) {
                    each.add(c.forNode(node));
                }
                return of(each);
            }

            @Override
            public Optional<Fact> backendOf(Endpoint address, Endpoint service) {
                for (Context c : all) {
                    Optional<Fact> t = c.backendOf(address, service);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Fact> answersOthers(Endpoint target, Endpoint client) {
                for (Context c : all) {
                    Optional<Fact> t = c.answersOthers(target, client);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Fact> lbIngress(Endpoint address) {
                for (Context c : all) {
                    Optional<Fact> t = c.lbIngress(address);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Fact> lbIngressComplete() {
                for (Context c : all) {
                    Optional<Fact> t = c.lbIngressComplete();
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Fact> serviceAddress(Endpoint address) {
                for (Context c : all) {
                    Optional<Fact> t = c.serviceAddress(address);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public long unpairedIcmpTo(Endpoint client) {
                long n = 0;
                for (Context c : all) {
                    n += c.unpairedIcmpTo(client);
                }
                return n;
            }

            @Override
            public long attemptsTo(Endpoint target) {
                long n = 0;
                for (Context c : all) {
                    n += c.attemptsTo(target);
                }
                return n;
            }

            @Override
            public AnswerCounts answerCounts() {
                AnswerCounts n = AnswerCounts.NONE;
                for (Context c : all) {
                    n = n.plus(c.answerCounts());
                }
                return n;
            }

            @Override
            public Optional<Reading> proxyMode() {
                for (Context c : all) {
                    Optional<Reading> t = c.proxyMode();
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Ref> ref(Endpoint e) {
                for (Context c : all) {
                    Optional<Ref> t = c.ref(e);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<String> nodeOf(Endpoint address) {
                for (Context c : all) {
                    Optional<String> t = c.nodeOf(address);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<ServiceFacts> service(Endpoint vp) {
                for (Context c : all) {
                    Optional<ServiceFacts> t = c.service(vp);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<ServiceFacts> lbService(Endpoint address) {
                for (Context c : all) {
                    Optional<ServiceFacts> t = c.lbService(address);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<PolicyVerdict> policy(Endpoint client, Endpoint target) {
                for (Context c : all) {
                    Optional<PolicyVerdict> t = c.policy(client, target);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Reading> captureNode() {
                for (Context c : all) {
                    Optional<Reading> t = c.captureNode();
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Reading> sysctl(String key) {
                for (Context c : all) {
                    Optional<Reading> t = c.sysctl(key);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Reading> bridgedToIptables(Endpoint client, int ifIndex) {
                for (Context c : all) {
                    Optional<Reading> t = c.bridgedToIptables(client, ifIndex);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Reading> hairpin(Endpoint client, int ifIndex) {
                for (Context c : all) {
                    Optional<Reading> t = c.hairpin(client, ifIndex);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Reading> localAddress(Endpoint address) {
                for (Context c : all) {
                    Optional<Reading> t = c.localAddress(address);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<Reading> counterRise(String counter) {
                for (Context c : all) {
                    Optional<Reading> t = c.counterRise(counter);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<String> interfaceName(int ifIndex) {
                for (Context c : all) {
                    Optional<String> t = c.interfaceName(ifIndex);
                    if (t.isPresent()) {
                        return t;
                    }
                }
                return Optional.empty();
            }

            @Override
            public List<String> expectedPath(Endpoint destination) {
                for (Context c : all) {
                    List<String> p = c.expectedPath(destination);
                    if (!p.isEmpty()) {
                        return p;
                    }
                }
                return List.of();
            }
        };
    }

    /** A context that knows nothing (tests, and a run without any). */
    static Context none() {
        return of(new ArrayList<>());
    }
}
