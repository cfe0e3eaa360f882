package io.pcapdiag.cluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.pcapdiag.decode.Ip;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;

/**
 * The cluster, indexed for the questions the analysis asks by address: which Service is behind an
 * address:port, its endpoints, the pod or node at an address, the policies of a namespace. Immutable;
 * built once per snapshot (or per change, live) by {@link Builder}. Addresses are pcapdiag's
 * ({@link io.pcapdiag.decode.Endpoint}, without port).
 */
public final class ClusterIndex {
    /**
     * An endpoint of a Service port: its address, port, conditions, node and the EndpointSlice that lists it. The
     * conditions as discovery.k8s.io/v1 EndpointConditions defines them: ready unset counts as ready; serving unset
     * defers to ready; terminating unset counts as not terminating (a pod being deleted is listed terminating, and
     * serving while its readiness probe still passes, until it is gone).
     */
    public record Backend(io.pcapdiag.decode.Endpoint address, int port, boolean ready, boolean serving, boolean terminating,
                          String node, String slice) {
    }

    /** Where an address:port is listed: a Service (namespace, name, the port's name) and the endpoint there. */
    public record Listing(String namespace, String service, String portName, Backend backend) {
    }

    /** The label that marks a cluster DNS Service: {@code k8s-app=kube-dns}. */
    public static final String DNS_LABEL = "k8s-app";
    public static final String DNS_LABEL_VALUE = "kube-dns";

    private final Map<io.pcapdiag.decode.Endpoint, List<Service>> servicesByIp;
    private final Map<Integer, List<Service>> servicesByNodePort;
    private final Map<String, List<EndpointSlice>> slicesByService;
    private final Map<io.pcapdiag.decode.Endpoint, Pod> podsByIp;
    private final Map<io.pcapdiag.decode.Endpoint, Node> nodesByIp;
    private final Map<String, List<NetworkPolicy>> policiesByNamespace;
    private final Set<io.pcapdiag.decode.Endpoint> lbIngress;
    private final int services;
    private final String proxyMode;
    private final List<String> contradictions;
    /** The cluster DNS Services by their ClusterIPs. */
    private final Map<io.pcapdiag.decode.Endpoint, List<Service>> dnsByIp;
    private final SortedSet<Integer> dnsPorts;

    private ClusterIndex(Builder b) {
        this.servicesByIp = Map.copyOf(b.servicesByIp);
        this.servicesByNodePort = Map.copyOf(b.servicesByNodePort);
        this.slicesByService = Map.copyOf(b.slicesByService);
        this.podsByIp = Map.copyOf(b.podsByIp);
        this.nodesByIp = Map.copyOf(b.nodesByIp);
        this.policiesByNamespace = Map.copyOf(b.policiesByNamespace);
        this.lbIngress = Set.copyOf(b.lbIngress);
        this.services = b.services;
        this.proxyMode = b.proxyMode;
        this.contradictions = List.copyOf(b.contradictions);
        Map<io.pcapdiag.decode.Endpoint, List<Service>> dns = new HashMap<>();
        SortedSet<Integer> ports = new TreeSet<>();
        for (Service s : dnsServices(b.kubeSystemServices)) {
            clusterIps(s).forEach(ip -> address(ip).ifPresent(a -> dns.computeIfAbsent(a, k -> new ArrayList<>()).add(s)));
            dnsPorts(s).forEach(ports::add);
        }
        this.dnsByIp = Map.copyOf(dns);
        this.dnsPorts = Collections.unmodifiableSortedSet(ports);
    }

    /** An index of nothing: what a live run has until the API server first answers. */
    public static ClusterIndex empty() {
        return new Builder().build();
    }

    // ---------------------------------------------------------------- Services

    /**
     * The Service behind {@code address:port}: a ClusterIP, LoadBalancer ingress IP or externalIP with one of
     * the Service's ports, or a node's address with one of its nodePorts. When the address is a Service's but
     * the port is none of its ports, that Service with a null port.
     */
    public Optional<ServiceMatch> service(io.pcapdiag.decode.Endpoint address, int port) {
        return service(address, port, "TCP");
    }

    /** The same for a port of {@code protocol} (TCP or UDP: kube-dns's port 53 is two ports, dns and dns-tcp). */
    public Optional<ServiceMatch> service(io.pcapdiag.decode.Endpoint address, int port, String protocol) {
        io.pcapdiag.decode.Endpoint a = address.withoutPort();
        ServiceMatch portless = null;
        for (Service s : servicesByIp.getOrDefault(a, List.of())) {
            ServiceMatch.Way way = way(s, a);
            String ipMode = way == ServiceMatch.Way.LOAD_BALANCER ? ipMode(s, a) : null;
            for (ServicePort sp : ports(s)) {
                if (sp.getPort() != null && sp.getPort() == port && protocol(sp.getProtocol(), protocol)) {
                    return Optional.of(new ServiceMatch(s, sp, way, ipMode));
                }
            }
            if (portless == null) {
                portless = new ServiceMatch(s, null, way, ipMode);
            }
        }
        if (nodesByIp.containsKey(a)) {
            for (Service s : servicesByNodePort.getOrDefault(port, List.of())) {
                for (ServicePort sp : ports(s)) {
                    if (sp.getNodePort() != null && sp.getNodePort() == port && protocol(sp.getProtocol(), protocol)) {
                        return Optional.of(new ServiceMatch(s, sp, ServiceMatch.Way.NODE_PORT, null));
                    }
                }
            }
        }
        return Optional.ofNullable(portless);
    }

    /** The Service whose LoadBalancer ingress IPs include {@code address}, with that ingress's ipMode. */
    public Optional<ServiceMatch> lbService(io.pcapdiag.decode.Endpoint address) {
        io.pcapdiag.decode.Endpoint a = address.withoutPort();
        for (Service s : servicesByIp.getOrDefault(a, List.of())) {
            if (way(s, a) == ServiceMatch.Way.LOAD_BALANCER) {
                return Optional.of(new ServiceMatch(s, null, ServiceMatch.Way.LOAD_BALANCER, ipMode(s, a)));
            }
        }
        return Optional.empty();
    }

    /** Whether {@code address} is any Service's address (ClusterIP, LoadBalancer ingress, externalIP). */
    public Optional<Service> serviceAt(io.pcapdiag.decode.Endpoint address) {
        List<Service> l = servicesByIp.get(address.withoutPort());
        return l == null || l.isEmpty() ? Optional.empty() : Optional.of(l.get(0));
    }

    /** Every LoadBalancer ingress IP of the cluster. */
    public Set<io.pcapdiag.decode.Endpoint> lbIngressIps() {
        return lbIngress;
    }

    /** How many Services the index holds: with none, "every LB IP is known" means nothing. */
    public int serviceCount() {
        return services;
    }

    /**
     * The endpoints of a Service port, from the Service's EndpointSlices (label kubernetes.io/service-name),
     * matched by port name as the EndpointSlice controller writes them, with their conditions ({@link Backend}).
     */
    public List<Backend> backends(ServiceMatch m) {
        List<Backend> out = new ArrayList<>();
        String key = m.namespace() + "/" + m.name();
        String want = m.port() == null ? null : m.port().getName();
        for (EndpointSlice es : slicesByService.getOrDefault(key, List.of())) {
            Integer matched = null;
            for (EndpointPort p : es.getPorts() == null ? List.<EndpointPort>of() : es.getPorts()) {
                if (Objects.equals(emptyToNull(p.getName()), emptyToNull(want)) && p.getPort() != null && BadValues.port(p.getPort())) {
                    matched = p.getPort(); // a port out of range is skipped (BadValues): no packet has it
                }
            }
            if (matched == null && m.port() != null) {
                continue;
            }
            endpoints(es, matched == null ? -1 : matched, out);
        }
        return out;
    }

    /** The endpoints of {@code es}, each address with {@code port} and the endpoint's conditions, added to {@code out}. */
    private static void endpoints(EndpointSlice es, int port, List<Backend> out) {
        for (Endpoint e : es.getEndpoints() == null ? List.<Endpoint>of() : es.getEndpoints()) {
            EndpointConditions c = e.getConditions();
            boolean ready = c == null || !Boolean.FALSE.equals(c.getReady());
            boolean serving = c == null || c.getServing() == null ? ready : c.getServing();
            boolean terminating = c != null && Boolean.TRUE.equals(c.getTerminating());
            for (String ip : e.getAddresses() == null ? List.<String>of() : e.getAddresses()) {
                Optional<io.pcapdiag.decode.Endpoint> a = address(ip);
                a.ifPresent(x -> out.add(new Backend(x, port, ready, serving, terminating, e.getNodeName(),
                        es.getMetadata().getName())));
            }
        }
    }

    /**
     * Every Service port whose EndpointSlices list {@code address} with {@code port} of {@code protocol} (an unset
     * protocol is TCP): what a connection that reached a backend directly, DNAT'ed before the capture saw it, went to.
     * In the order of the Services' namespace/name, then as their EndpointSlices list them.
     */
    public List<Listing> listings(io.pcapdiag.decode.Endpoint address, int port, String protocol) {
        io.pcapdiag.decode.Endpoint a = address.withoutPort();
        List<Listing> out = new ArrayList<>();
        // Plain loops over the sorted keys: the map's own order differs from run to run (Map.copyOf).
        for (String key : new TreeSet<>(slicesByService.keySet())) {
            String[] svc = key.split("/", 2);
            for (EndpointSlice es : slicesByService.get(key)) {
                for (EndpointPort p : es.getPorts() == null ? List.<EndpointPort>of() : es.getPorts()) {
                    if (p.getPort() == null || p.getPort() != port || !protocol(p.getProtocol(), protocol)) {
                        continue;
                    }
                    List<Backend> listed = new ArrayList<>();
                    endpoints(es, port, listed);
                    String name = emptyToNull(p.getName()) != null ? p.getName() : String.valueOf(port);
                    for (Backend b : listed) {
                        if (b.address().equals(a)) {
                            out.add(new Listing(svc[0], svc[1], name, b));
                        }
                    }
                }
            }
        }
        return out;
    }

    // ---------------------------------------------------------------- pods and nodes

    /** The pod at {@code address} (status.podIPs; hostNetwork pods share their node's address and are not indexed). */
    public Optional<Pod> podAt(io.pcapdiag.decode.Endpoint address) {
        return Optional.ofNullable(podsByIp.get(address.withoutPort()));
    }

    /**
     * The DNS settings of the pod at {@code address} (its dnsPolicy and dnsConfig). hostNetwork pods are not looked up:
     * they share their node's address, so an address would name any of them or the node itself, and none of them
     * would be the one that asked; their resolv.conf is the node's anyway, unless ClusterFirstWithHostNet.
     */
    public Optional<PodDns> podDns(io.pcapdiag.decode.Endpoint address) {
        return podAt(address).map(PodDns::of);
    }

    /** The node with {@code address} among its InternalIP/ExternalIP addresses. */
    public Optional<Node> nodeAt(io.pcapdiag.decode.Endpoint address) {
        return Optional.ofNullable(nodesByIp.get(address.withoutPort()));
    }

    /** The NetworkPolicies of a namespace. */
    public List<NetworkPolicy> policies(String namespace) {
        return policiesByNamespace.getOrDefault(namespace, List.of());
    }

    // ---------------------------------------------------------------- the cluster DNS Service

    /**
     * The DNS ports of the cluster DNS Services (below), sorted: where pods' queries go, over UDP and TCP alike. Empty
     * when the index holds no such Service (no cluster context, or a snapshot without kube-system's Services).
     */
    public SortedSet<Integer> dnsPorts() {
        return dnsPorts;
    }

    /** Whether {@code address:port} is a ClusterIP and a DNS port of a cluster DNS Service. */
    public boolean isDnsService(io.pcapdiag.decode.Endpoint address, int port) {
        return dnsService(address, port).isPresent();
    }

    /**
     * The cluster DNS Service at {@code address:port} (a ClusterIP and one of its DNS ports): a Service of
     * kube-system labelled {@code k8s-app=kube-dns} (CoreDNS and kube-dns are deployed so, and NodeLocal DNSCache's
     * kube-dns-upstream too), or, when none is labelled, the one named kube-dns (the name kubeadm gives it and other
     * installers keep).
     */
    public Optional<Service> dnsService(io.pcapdiag.decode.Endpoint address, int port) {
        for (Service s : dnsByIp.getOrDefault(address.withoutPort(), List.of())) {
            if (dnsPorts(s).contains(port)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    private static List<Service> dnsServices(List<Service> kubeSystem) {
        // One pass for both: a lambda only one snapshot's shape reaches would miss the launcher's class-data archive.
        List<Service> labelled = new ArrayList<>();
        List<Service> named = new ArrayList<>();
        for (Service s : kubeSystem) {
            if (s.getMetadata().getLabels() != null && DNS_LABEL_VALUE.equals(s.getMetadata().getLabels().get(DNS_LABEL))) {
                labelled.add(s);
            } else if ("kube-dns".equals(s.getMetadata().getName())) {
                named.add(s);
            }
        }
        return !labelled.isEmpty() ? labelled : named;
    }

    /**
     * A DNS Service's DNS ports: the numbers of its UDP ports, on which a DNS server answers over TCP too (RFC 7766),
     * as kube-dns's dns and dns-tcp ports are both 53. A TCP port alone is not DNS's: CoreDNS's Service exposes its
     * Prometheus metrics on 9153/TCP.
     */
    private static SortedSet<Integer> dnsPorts(Service s) {
        SortedSet<Integer> udp = new TreeSet<>();
        for (ServicePort p : ports(s)) {
            if (p.getPort() != null && BadValues.port(p.getPort()) && protocol(p.getProtocol(), "UDP")) {
                udp.add(p.getPort());
            }
        }
        return udp;
    }

    /** kube-proxy's mode from its ConfigMap (kube-system/kube-proxy, config.conf; "" means iptables), or null. */
    public String proxyMode() {
        return proxyMode;
    }

    /** What the snapshot says that cannot all be true (a pod IP on two nodes...), one line each. */
    public List<String> contradictions() {
        return contradictions;
    }

    // ---------------------------------------------------------------- helpers

    private static List<ServicePort> ports(Service s) {
        return s.getSpec() == null || s.getSpec().getPorts() == null ? List.of() : s.getSpec().getPorts();
    }

    /** A port's protocol is {@code want}; the API server defaults an absent one to TCP. */
    private static boolean protocol(String p, String want) {
        return (p == null ? "TCP" : p).equals(want);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static ServiceMatch.Way way(Service s, io.pcapdiag.decode.Endpoint a) {
        for (String ip : clusterIps(s)) {
            if (address(ip).map(a::equals).orElse(false)) {
                return ServiceMatch.Way.CLUSTER_IP;
            }
        }
        for (LoadBalancerIngress i : ingress(s)) {
            if (i.getIp() != null && address(i.getIp()).map(a::equals).orElse(false)) {
                return ServiceMatch.Way.LOAD_BALANCER;
            }
        }
        return ServiceMatch.Way.EXTERNAL_IP;
    }

    private static String ipMode(Service s, io.pcapdiag.decode.Endpoint a) {
        for (LoadBalancerIngress i : ingress(s)) {
            if (i.getIp() != null && address(i.getIp()).map(a::equals).orElse(false)) {
                return i.getIpMode() == null || i.getIpMode().isEmpty() ? "VIP" : i.getIpMode();
            }
        }
        return null;
    }

    private static List<String> clusterIps(Service s) {
        if (s.getSpec() == null) {
            return List.of();
        }
        Set<String> ips = new LinkedHashSet<>();
        if (s.getSpec().getClusterIP() != null) {
            ips.add(s.getSpec().getClusterIP());
        }
        if (s.getSpec().getClusterIPs() != null) {
            ips.addAll(s.getSpec().getClusterIPs());
        }
        return new ArrayList<>(ips);
    }

    private static List<LoadBalancerIngress> ingress(Service s) {
        return s.getStatus() == null || s.getStatus().getLoadBalancer() == null || s.getStatus().getLoadBalancer().getIngress() == null
                ? List.of() : s.getStatus().getLoadBalancer().getIngress();
    }

    /** An IP literal as pcapdiag's address, or empty for "None", "" and names. */
    static Optional<io.pcapdiag.decode.Endpoint> address(String ip) {
        // A zone (fe80::1%eth0) names an interface of the machine reading it, never part of a cluster's address.
        if (ip == null || ip.isEmpty() || ip.equals("None") || ip.indexOf('%') >= 0) {
            return Optional.empty();
        }
        try {
            long[] a = Ip.parse(ip);
            return Optional.of(io.pcapdiag.decode.Endpoint.address(a[0], a[1]));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Builds an index, one object at a time. */
    public static final class Builder {
        private final Map<io.pcapdiag.decode.Endpoint, List<Service>> servicesByIp = new HashMap<>();
        private final Map<Integer, List<Service>> servicesByNodePort = new HashMap<>();
        private final Map<String, List<EndpointSlice>> slicesByService = new HashMap<>();
        private final Map<io.pcapdiag.decode.Endpoint, Pod> podsByIp = new HashMap<>();
        private final Map<String, Pod> podsByName = new HashMap<>();
        private final Map<io.pcapdiag.decode.Endpoint, Node> nodesByIp = new HashMap<>();
        private final Map<String, List<NetworkPolicy>> policiesByNamespace = new HashMap<>();
        private final Set<io.pcapdiag.decode.Endpoint> lbIngress = new java.util.HashSet<>();
        private final List<String> contradictions = new ArrayList<>();
        private final List<EndpointSlice> slices = new ArrayList<>();
        private final List<Service> kubeSystemServices = new ArrayList<>();
        private int services;
        private String proxyMode;

        /** Adds an object; returns null, or what it lacks (e.g. "has no status.podIP") when it cannot be indexed. */
        public String add(HasMetadata o) {
            if (o instanceof Service s) {
                return addService(s);
            }
            if (o instanceof EndpointSlice es) {
                String svc = es.getMetadata().getLabels() == null ? null : es.getMetadata().getLabels().get("kubernetes.io/service-name");
                if (svc == null) {
                    return "has no label kubernetes.io/service-name";
                }
                slicesByService.computeIfAbsent(es.getMetadata().getNamespace() + "/" + svc, k -> new ArrayList<>()).add(es);
                slices.add(es);
                return null;
            }
            if (o instanceof Pod p) {
                return addPod(p);
            }
            if (o instanceof Node n) {
                for (NodeAddress a : n.getStatus() == null || n.getStatus().getAddresses() == null ? List.<NodeAddress>of()
                        : n.getStatus().getAddresses()) {
                    if ("InternalIP".equals(a.getType()) || "ExternalIP".equals(a.getType())) {
                        address(a.getAddress()).ifPresent(x -> {
                            Pod p = podsByIp.get(x);
                            if (p != null) {
                                contradictions.add(x.address() + " is node " + n.getMetadata().getName() + "'s address and pod "
                                        + p.getMetadata().getNamespace() + "/" + p.getMetadata().getName() + "'s");
                            }
                            nodesByIp.put(x, n);
                        });
                    }
                }
                return null;
            }
            if (o instanceof NetworkPolicy np) {
                if (np.getSpec() == null || np.getSpec().getPodSelector() == null) {
                    return "has no spec.podSelector";
                }
                policiesByNamespace.computeIfAbsent(np.getMetadata().getNamespace(), k -> new ArrayList<>()).add(np);
                return null;
            }
            if (o instanceof ConfigMap cm) {
                if ("kube-system".equals(cm.getMetadata().getNamespace()) && "kube-proxy".equals(cm.getMetadata().getName())) {
                    String conf = cm.getData() == null ? null : cm.getData().get("config.conf");
                    if (conf == null) {
                        return "has no data.config.conf";
                    }
                    Matcher m = java.util.regex.Pattern.compile("(?m)^mode:\\s*\"?([a-z]*)\"?\\s*$").matcher(conf);
                    proxyMode = m.find() && !m.group(1).isEmpty() ? m.group(1) : "iptables";
                }
                return null;
            }
            return "is of a kind the analysis does not read";
        }

        private String addService(Service s) {
            if (s.getSpec() == null) {
                return "has no spec";
            }
            services++;
            if ("kube-system".equals(s.getMetadata().getNamespace())) {
                kubeSystemServices.add(s);
            }
            Set<io.pcapdiag.decode.Endpoint> ips = new LinkedHashSet<>();
            clusterIps(s).forEach(ip -> address(ip).ifPresent(ips::add));
            for (LoadBalancerIngress i : ingress(s)) {
                address(i.getIp()).ifPresent(a -> {
                    ips.add(a);
                    lbIngress.add(a);
                });
            }
            if (s.getSpec().getExternalIPs() != null) {
                s.getSpec().getExternalIPs().forEach(ip -> address(ip).ifPresent(ips::add));
            }
            for (io.pcapdiag.decode.Endpoint a : ips) {
                servicesByIp.computeIfAbsent(a, k -> new ArrayList<>()).add(s);
            }
            for (ServicePort p : ports(s)) {
                if (p.getNodePort() != null) {
                    servicesByNodePort.computeIfAbsent(p.getNodePort(), k -> new ArrayList<>()).add(s);
                }
            }
            return null;
        }

        private String addPod(Pod p) {
            String key = p.getMetadata().getNamespace() + "/" + p.getMetadata().getName();
            podsByName.put(key, p);
            if (p.getSpec() != null && Boolean.TRUE.equals(p.getSpec().getHostNetwork())) {
                return null; // its address is its node's: the node answers for it
            }
            List<String> ips = new ArrayList<>();
            if (p.getStatus() != null && p.getStatus().getPodIPs() != null) {
                for (PodIP ip : p.getStatus().getPodIPs()) {
                    ips.add(ip.getIp());
                }
            }
            if (ips.isEmpty() && p.getStatus() != null && p.getStatus().getPodIP() != null) {
                ips.add(p.getStatus().getPodIP());
            }
            if (ips.isEmpty()) {
                return "has no status.podIP";
            }
            String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
            for (String ip : ips) {
                Optional<io.pcapdiag.decode.Endpoint> a = address(ip);
                if (a.isEmpty()) {
                    continue;
                }
                Pod had = podsByIp.put(a.get(), p);
                if (had != null) {
                    String hadNode = had.getSpec() == null ? null : had.getSpec().getNodeName();
                    contradictions.add(ip + " is the address of pod " + had.getMetadata().getNamespace() + "/"
                            + had.getMetadata().getName() + " (" + hadNode + ") and of pod " + key + " (" + node + ")"
                            + (Objects.equals(hadNode, node) ? "" : ": on two nodes") + "; the second is used");
                }
            }
            return null;
        }

        public ClusterIndex build() {
            // EndpointSlices name a node per endpoint; the pod they point at names one too.
            for (EndpointSlice es : slices) {
                for (Endpoint e : es.getEndpoints() == null ? List.<Endpoint>of() : es.getEndpoints()) {
                    if (e.getTargetRef() == null || e.getNodeName() == null) {
                        continue;
                    }
                    Pod p = podsByName.get(e.getTargetRef().getNamespace() + "/" + e.getTargetRef().getName());
                    String podNode = p == null || p.getSpec() == null ? null : p.getSpec().getNodeName();
                    if (podNode != null && !podNode.equals(e.getNodeName())) {
                        contradictions.add("EndpointSlice " + es.getMetadata().getNamespace() + "/" + es.getMetadata().getName()
                                + " puts pod " + e.getTargetRef().getName() + " on " + e.getNodeName() + ", the pod says "
                                + podNode);
                    }
                }
            }
            return new ClusterIndex(this);
        }
    }
}
