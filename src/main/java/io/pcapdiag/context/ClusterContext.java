package io.pcapdiag.context;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.pcapdiag.cluster.ClusterIndex;
import io.pcapdiag.cluster.PodDns;
import io.pcapdiag.cluster.Policies;
import io.pcapdiag.cluster.ServiceMatch;
import io.pcapdiag.decode.Endpoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The cluster ({@code --cluster PATH}, or live informers) as the context's answers: names, Services and
 * their endpoints, LoadBalancer IPs, NetworkPolicies, kube-proxy's mode. Reads the current index on every
 * question, so a live run sees the cluster as it is now. Loaded only when a cluster is given.
 */
public final class ClusterContext implements Context {
    private final Supplier<ClusterIndex> index;
    /** How facts name where they come from: "the cluster snapshot", "the cluster". */
    private final String said;

    public ClusterContext(Supplier<ClusterIndex> index, String said) {
        this.index = index;
        this.said = said;
    }

    private static Fact fact(String text) {
        return new Fact(Source.CLUSTER, text);
    }

    @Override
    public boolean informs() {
        return true;
    }

    @Override
    public Optional<Fact> backendOf(Endpoint address, Endpoint service) {
        ClusterIndex idx = index.get();
        Optional<ServiceMatch> m = idx.service(service, service.port()).filter(x -> x.port() != null);
        if (m.isEmpty()) {
            return Optional.empty();
        }
        for (ClusterIndex.Backend b : idx.backends(m.get())) {
            if (b.address().sameAddress(address)) {
                return Optional.of(fact("the cluster lists " + address.address() + " as an endpoint of " + svc(m.get())
                        + " (EndpointSlice " + m.get().namespace() + "/" + b.slice() + ")"));
            }
        }
        return Optional.empty();
    }

    /** Over UDP: the endpoints of a Service's UDP port (stale-udp-conntrack asks of the DNS Service's dns port). */
    @Override
    public Optional<EndpointStatus> endpointStatus(Endpoint address, Endpoint service) {
        return endpointStatus(address, service, "UDP");
    }

    @Override
    public Optional<EndpointStatus> endpointStatus(Endpoint address, Endpoint service, String protocol) {
        ClusterIndex idx = index.get();
        Optional<ServiceMatch> m = idx.service(service, service.port(), protocol).filter(x -> x.port() != null);
        if (m.isEmpty()) {
            return Optional.empty();
        }
        for (ClusterIndex.Backend b : idx.backends(m.get())) {
            if (b.address().sameAddress(address)) {
                return Optional.of(status(address, b, svc(m.get()), m.get().namespace()));
            }
        }
        String pod = idx.podAt(address.withoutPort()).map(p -> "pod " + p.getMetadata().getNamespace() + "/"
                + p.getMetadata().getName()).orElse("no pod the cluster lists");
        return Optional.of(new EndpointStatus(false, false, false, false, fact(address.address() + " is in no EndpointSlice of "
                + svc(m.get()) + " (" + pod + ")")));
    }

    @Override
    public List<EndpointStatus> endpoints(Endpoint service, String protocol) {
        ClusterIndex idx = index.get();
        Optional<ServiceMatch> m = idx.service(service, service.port(), protocol).filter(x -> x.port() != null);
        if (m.isEmpty()) {
            return List.of();
        }
        List<EndpointStatus> out = new ArrayList<>();
        for (ClusterIndex.Backend b : idx.backends(m.get())) {
            out.add(status(b.address(), b, svc(m.get()), m.get().namespace()));
        }
        return out;
    }

    @Override
    public List<EndpointStatus> listings(Endpoint backend, String protocol) {
        List<EndpointStatus> out = new ArrayList<>();
        for (ClusterIndex.Listing l : index.get().listings(backend, backend.port(), protocol)) {
            out.add(status(backend, l.backend(), "svc " + l.namespace() + "/" + l.service() + ":" + l.portName(), l.namespace()));
        }
        return out;
    }

    /**
     * {@code 10.244.1.20 is a not-ready endpoint of svc default/api:http, terminating and no longer serving (EndpointSlice
     * default/api-v4)}: the conditions are named where they say more than ready alone.
     */
    private static EndpointStatus status(Endpoint address, ClusterIndex.Backend b, String svc, String namespace) {
        String more = b.terminating() ? ", terminating and " + (b.serving() ? "still serving" : "no longer serving")
                : b.serving() == b.ready() ? "" : b.serving() ? ", serving" : ", not serving";
        return new EndpointStatus(true, b.ready(), b.serving(), b.terminating(), fact(address.address() + " is "
                + (b.ready() ? "a ready" : "a not-ready") + " endpoint of " + svc + more + " (EndpointSlice " + namespace + "/"
                + b.slice() + ")"));
    }

    @Override
    public Optional<Fact> lbIngress(Endpoint address) {
        return index.get().lbService(address).map(m -> fact(address.address() + " is the LoadBalancer ingress IP of svc "
                + m.namespace() + "/" + m.name()));
    }

    @Override
    public Optional<Fact> lbIngressComplete() {
        ClusterIndex idx = index.get();
        if (idx.serviceCount() == 0) {
            return Optional.empty();
        }
        int n = idx.lbIngressIps().size();
        return Optional.of(fact(said + " lists " + n + " LoadBalancer ingress IP" + (n == 1 ? "" : "s") + " among its "
                + idx.serviceCount() + " Services"));
    }

    @Override
    public Optional<Fact> serviceAddress(Endpoint address) {
        return index.get().serviceAt(address).map(s -> fact(address.address() + " is an address of svc "
                + s.getMetadata().getNamespace() + "/" + s.getMetadata().getName()));
    }

    @Override
    public Optional<Ref> ref(Endpoint e) {
        return ref(e, "TCP");
    }

    @Override
    public Optional<Ref> ref(Endpoint e, String protocol) {
        ClusterIndex idx = index.get();
        if (e.port() >= 0) {
            Optional<ServiceMatch> m = idx.service(e, e.port(), protocol);
            if (m.isPresent()) {
                return Optional.of(new Ref(Ref.SERVICE, m.get().namespace(), m.get().name(), m.get().portName(), null));
            }
        }
        Optional<Pod> p = idx.podAt(e);
        if (p.isPresent()) {
            return Optional.of(new Ref(Ref.POD, p.get().getMetadata().getNamespace(), p.get().getMetadata().getName(), null,
                    p.get().getSpec() == null ? null : p.get().getSpec().getNodeName()));
        }
        Optional<Node> n = idx.nodeAt(e);
        if (n.isPresent()) {
            return Optional.of(new Ref(Ref.NODE, null, n.get().getMetadata().getName(), null, n.get().getMetadata().getName()));
        }
        Optional<Service> s = idx.serviceAt(e);
        return s.map(x -> new Ref(Ref.SERVICE, x.getMetadata().getNamespace(), x.getMetadata().getName(), null, null));
    }

    @Override
    public Optional<Fact> nodeAddress(Endpoint address) {
        return index.get().nodeAt(address).map(n -> fact(address.address() + " is an address of node " + n.getMetadata().getName()));
    }

    @Override
    public Optional<String> nodeOf(Endpoint address) {
        ClusterIndex idx = index.get();
        Optional<Pod> p = idx.podAt(address);
        if (p.isPresent()) {
            return Optional.ofNullable(p.get().getSpec() == null ? null : p.get().getSpec().getNodeName());
        }
        return idx.nodeAt(address).map(n -> n.getMetadata().getName());
    }

    @Override
    public Optional<ServiceFacts> service(Endpoint vp) {
        return service(vp, "TCP");
    }

    @Override
    public Optional<ServiceFacts> service(Endpoint vp, String protocol) {
        ClusterIndex idx = index.get();
        return idx.service(vp, vp.port(), protocol).map(m -> facts(idx, m, vp));
    }

    @Override
    public Optional<ServiceFacts> lbService(Endpoint address) {
        ClusterIndex idx = index.get();
        return idx.lbService(address).map(m -> facts(idx, m, address));
    }

    private ServiceFacts facts(ClusterIndex idx, ServiceMatch m, Endpoint vp) {
        Service s = m.service();
        List<Integer> ports = new ArrayList<>();
        for (ServicePort p : s.getSpec().getPorts() == null ? List.<ServicePort>of() : s.getSpec().getPorts()) {
            Integer n = m.way() == ServiceMatch.Way.NODE_PORT ? p.getNodePort() : p.getPort();
            if (n != null) {
                ports.add(n);
            }
        }
        int ready = 0;
        Map<String, Integer> byNode = new TreeMap<>();
        if (m.port() != null) {
            for (ClusterIndex.Backend b : idx.backends(m)) {
                if (b.ready()) {
                    ready++;
                    byNode.merge(b.node() == null ? "(no node)" : b.node(), 1, Integer::sum);
                }
            }
        }
        String text;
        if (m.port() != null) {
            text = vp + " is " + svc(m) + " (" + m.way().text() + ")";
        } else if (vp.port() >= 0) {
            text = vp.address() + " is the " + m.way().text() + " of svc " + m.namespace() + "/" + m.name() + ", whose ports are "
                    + join(ports) + "; " + vp.port() + " is none of them";
        } else {
            text = vp.address() + " is the " + m.way().text() + " of svc " + m.namespace() + "/" + m.name()
                    + (m.lbIpMode() != null ? ", ipMode " + m.lbIpMode() : "");
        }
        String etp = s.getSpec().getExternalTrafficPolicy() == null ? "Cluster" : s.getSpec().getExternalTrafficPolicy();
        return new ServiceFacts(new Ref(Ref.SERVICE, m.namespace(), m.name(), m.portName(), null), m.way().text(),
                m.port() != null, ports, etp, ready, byNode, m.lbIpMode(),
                s.getSpec().getSelector() == null ? Map.of() : s.getSpec().getSelector(), fact(text));
    }

    private static String svc(ServiceMatch m) {
        return "svc " + m.namespace() + "/" + m.name() + (m.portName() != null ? ":" + m.portName() : "");
    }

    private static String join(List<Integer> ports) {
        StringBuilder sb = new StringBuilder();
        for (Integer p : ports) {
            sb.append(sb.length() == 0 ? "" : ", ").append(p);
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    @Override
    public Optional<PolicyVerdict> policy(Endpoint client, Endpoint target) {
        return policy(client, target, "TCP");
    }

    @Override
    public Optional<PolicyVerdict> policy(Endpoint client, Endpoint target, String protocol) {
        return Policies.evaluate(index.get(), client, target, protocol).filter(o -> o.admitted() != null)
                .map(o -> new PolicyVerdict(o.admitted(), fact(o.text()), o.fix(), o.admitted() ? List.of() : blocking(o.text())));
    }

    /** "NetworkPolicy ns/a selects ... for ingress and no rule admits": the policies Policies names as refusing. */
    private static final java.util.regex.Pattern REFUSING = java.util.regex.Pattern.compile(
            "NetworkPolic(?:y|ies) ([^ ,;]+(?:, [^ ,;]+)*) selects? [^;]*? for (?:ingress|egress) and no rule admits");

    /**
     * The policies that refuse the connection, as {@link Policies} names them in its sentence (each direction's
     * selecting policies, when none of their rules admits).
     */
    static List<String> blocking(String text) {
        List<String> out = new ArrayList<>();
        java.util.regex.Matcher m = REFUSING.matcher(text);
        while (m.find()) {
            out.addAll(List.of(m.group(1).split(", ")));
        }
        return out;
    }

    /**
     * The DNS settings of the pod at {@code address} ({@link ClusterIndex#podDns}): its dnsPolicy and dnsConfig, and
     * the sentence stating them.
     */
    @Override
    public Optional<PodDnsFacts> podDns(Endpoint address) {
        ClusterIndex idx = index.get();
        Optional<Pod> pod = idx.podAt(address);
        Optional<PodDns> dns = idx.podDns(address);
        if (pod.isEmpty() || dns.isEmpty()) {
            return Optional.empty();
        }
        PodDns d = dns.get();
        Pod p = pod.get();
        boolean defaulted = p.getSpec() == null || p.getSpec().getDnsPolicy() == null || p.getSpec().getDnsPolicy().isEmpty();
        boolean config = p.getSpec() != null && p.getSpec().getDnsConfig() != null;
        StringBuilder text = new StringBuilder(said).append(" gives pod ").append(d.namespace()).append('/').append(d.name());
        if (d.dnsPolicy() == null) {
            text.append(" a dnsPolicy the API server does not accept");
        } else {
            text.append(" dnsPolicy ").append(d.dnsPolicy()).append(defaulted ? " (the default: its spec sets none)" : "");
        }
        if (!config) {
            text.append(" and no dnsConfig");
        } else {
            List<String> parts = new ArrayList<>();
            parts.add(d.ndots().isPresent() ? "ndots " + d.ndots().getAsInt() : "no ndots");
            if (!d.searches().isEmpty()) {
                parts.add("searches " + String.join(" ", d.searches()));
            }
            if (!d.nameservers().isEmpty()) {
                parts.add("nameservers " + String.join(" ", d.nameservers()));
            }
            text.append(", dnsConfig with ").append(String.join(", ", parts));
        }
        Ref ref = new Ref(Ref.POD, d.namespace(), d.name(), null, p.getSpec() == null ? null : p.getSpec().getNodeName());
        return Optional.of(new PodDnsFacts(ref, d.dnsPolicy(), d.ndots(), d.searches(), d.nameservers(), fact(text.toString())));
    }

    /** The UDP and TCP ports of the cluster DNS Services ({@link ClusterIndex#dnsPorts}); empty when the cluster has none. */
    @Override
    public SortedSet<Integer> dnsPorts() {
        return index.get().dnsPorts();
    }

    /** Why {@code vp} (address:port) is the cluster DNS Service: its ClusterIP and port, and how it is known for one. */
    @Override
    public Optional<Fact> dnsService(Endpoint vp) {
        return index.get().dnsService(vp, vp.port()).map(s -> {
            String label = s.getMetadata().getLabels() == null ? null : s.getMetadata().getLabels().get(ClusterIndex.DNS_LABEL);
            return fact(vp + " is the cluster DNS Service svc " + s.getMetadata().getNamespace() + "/" + s.getMetadata().getName()
                    + (ClusterIndex.DNS_LABEL_VALUE.equals(label) ? " (label " + ClusterIndex.DNS_LABEL + "="
                    + ClusterIndex.DNS_LABEL_VALUE + ")" : " (no Service of kube-system is labelled " + ClusterIndex.DNS_LABEL
                    + "=" + ClusterIndex.DNS_LABEL_VALUE + "; it is named kube-dns)"));
        });
    }

    @Override
    public Optional<Reading> proxyMode() {
        String mode = index.get().proxyMode();
        return mode == null ? Optional.empty() : Optional.of(new Reading("kube-proxy", mode,
                fact("the kube-proxy ConfigMap (kube-system/kube-proxy) sets mode " + mode)));
    }
}
