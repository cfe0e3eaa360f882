package io.pcapdiag.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.node.InterfaceAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Kubernetes NetworkPolicy semantics (networking.k8s.io/v1), evaluated on a snapshot: does the cluster let a
 * client reach a pod on a TCP port? A pod selected by a policy of a direction is isolated in that
 * direction; a connection is admitted when some rule of some selecting policy admits it, in both directions.
 * Namespaces are not in the snapshot: a namespaceSelector can be judged only on the label every namespace
 * carries, {@code kubernetes.io/metadata.name}; one that needs another label makes the answer unknown.
 */
public final class Policies {
    private static final String NAMESPACE_NAME = "kubernetes.io/metadata.name";
    private static final ObjectMapper JSON = new ObjectMapper();

    private Policies() {
    }

    /**
     * What the policies say.
     *
     * @param admitted true, false, or null when the snapshot cannot tell
     * @param text     the sentence: which policies select which pod, and whether a rule admits the client
     * @param fix      for a refusal, a command that admits the client; else null
     */
    public record Outcome(Boolean admitted, String text, String fix) {
    }

    /** Whether {@code client} may reach {@code target} (address:port of a pod) over TCP; empty when the target is no pod. */
    public static Optional<Outcome> evaluate(ClusterIndex idx, Endpoint client, Endpoint target) {
        return evaluate(idx, client, target, "TCP");
    }

    /** Whether {@code client} may reach {@code target} over {@code protocol} (TCP or UDP); empty when the target is no pod. */
    public static Optional<Outcome> evaluate(ClusterIndex idx, Endpoint client, Endpoint target, String protocol) {
        Optional<Pod> targetPod = idx.podAt(target);
        if (targetPod.isEmpty()) {
            return Optional.empty();
        }
        Pod to = targetPod.get();
        Pod from = idx.podAt(client).orElse(null);
        String who = client.address() + (from != null ? " (pod " + id(from) + ")" : "");
        String where = "pod " + id(to) + " on " + protocol + " " + target.port();

        // A pod no policy selects for a direction is not isolated in it; once one does, only its rules admit.
        List<String> ingressBy = new ArrayList<>();
        Boolean ruleIn = false;
        for (NetworkPolicy np : idx.policies(to.getMetadata().getNamespace())) {
            if (selects(np, to) && types(np).contains("Ingress")) {
                ingressBy.add(id(np));
                for (NetworkPolicyIngressRule r : list(np.getSpec().getIngress())) {
                    ruleIn = or(ruleIn, and(anyPeer(r.getFrom(), client, from, np.getMetadata().getNamespace()),
                            anyPort(r.getPorts(), target.port(), to, protocol)));
                }
            }
        }
        Boolean ingress = ingressBy.isEmpty() ? Boolean.TRUE : ruleIn;
        List<String> egressBy = new ArrayList<>();
        Boolean ruleOut = false;
        if (from != null) {
            for (NetworkPolicy np : idx.policies(from.getMetadata().getNamespace())) {
                if (selects(np, from) && types(np).contains("Egress")) {
                    egressBy.add(id(np));
                    for (NetworkPolicyEgressRule r : list(np.getSpec().getEgress())) {
                        ruleOut = or(ruleOut, and(anyPeer(r.getTo(), target, to, np.getMetadata().getNamespace()),
                                anyPort(r.getPorts(), target.port(), to, protocol)));
                    }
                }
            }
        }
        Boolean egress = egressBy.isEmpty() ? Boolean.TRUE : ruleOut;
        Boolean admitted = and(ingress, egress);
        StringBuilder text = new StringBuilder();
        if (ingressBy.isEmpty()) {
            text.append("no NetworkPolicy selects ").append("pod ").append(id(to)).append(" for ingress");
        } else {
            text.append("NetworkPolic").append(ingressBy.size() == 1 ? "y " : "ies ").append(String.join(", ", ingressBy))
                    .append(ingressBy.size() == 1 ? " selects " : " select ").append(where).append(" for ingress and ")
                    .append(ingress == null ? "whether a rule admits " + who + " needs labels the snapshot lacks"
                            : ingress ? "a rule admits " + who : "no rule admits " + who);
        }
        if (!egressBy.isEmpty()) {
            text.append("; NetworkPolic").append(egressBy.size() == 1 ? "y " : "ies ").append(String.join(", ", egressBy))
                    .append(" select").append(egressBy.size() == 1 ? "s " : " ").append("pod ").append(id(from))
                    .append(" for egress and ").append(egress == null ? "whether a rule admits the target is unknown"
                            : egress ? "a rule admits " + where : "no rule admits " + where);
        }
        String fix = null;
        if (Boolean.FALSE.equals(ingress)) {
            fix = allow(to, from, client, target.port(), protocol);
        } else if (Boolean.FALSE.equals(egress)) {
            fix = "kubectl -n " + from.getMetadata().getNamespace() + " edit networkpolicy " + egressBy.get(0)
                    .substring(egressBy.get(0).indexOf('/') + 1) + "   (add an egress rule to " + where + ")";
        }
        return Optional.of(new Outcome(admitted, text.toString(), fix));
    }

    /** A NetworkPolicy that admits the client to the target pod's port, as a command to paste. */
    private static String allow(Pod to, Pod from, Endpoint client, int port, String protocol) {
        ObjectNode np = JSON.createObjectNode();
        np.put("apiVersion", "networking.k8s.io/v1").put("kind", "NetworkPolicy");
        String name = "allow-" + (from != null ? app(from) : "client") + "-to-" + app(to);
        np.putObject("metadata").put("name", name);
        ObjectNode spec = np.putObject("spec");
        spec.putObject("podSelector").set("matchLabels", JSON.valueToTree(labels(to)));
        spec.putArray("policyTypes").add("Ingress");
        ObjectNode rule = spec.putArray("ingress").addObject();
        ObjectNode peer = rule.putArray("from").addObject();
        if (from != null) {
            peer.putObject("podSelector").set("matchLabels", JSON.valueToTree(labels(from)));
            if (!from.getMetadata().getNamespace().equals(to.getMetadata().getNamespace())) {
                peer.putObject("namespaceSelector").putObject("matchLabels").put(NAMESPACE_NAME, from.getMetadata().getNamespace());
            }
        } else {
            peer.putObject("ipBlock").put("cidr", client.address() + (client.isV4() ? "/32" : "/128"));
        }
        ArrayNode ports = rule.putArray("ports");
        ports.addObject().put("protocol", protocol).put("port", port);
        return "kubectl -n " + to.getMetadata().getNamespace() + " apply -f - <<< '" + np + "'";
    }

    /** A pod's labels without those every replica differs by. */
    private static Map<String, String> labels(Pod p) {
        Map<String, String> l = new TreeMap<>(p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels());
        l.remove("pod-template-hash");
        l.remove("controller-revision-hash");
        l.remove("statefulset.kubernetes.io/pod-name");
        return l;
    }

    private static String app(Pod p) {
        Map<String, String> l = labels(p);
        return l.getOrDefault("app", l.getOrDefault("app.kubernetes.io/name", p.getMetadata().getName()));
    }

    private static String id(io.fabric8.kubernetes.api.model.HasMetadata o) {
        return o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }

    /** The policy's types: as written, or Ingress plus Egress when it has egress rules (the API's defaulting). */
    private static List<String> types(NetworkPolicy np) {
        List<String> t = np.getSpec().getPolicyTypes();
        if (t != null && !t.isEmpty()) {
            return t;
        }
        return np.getSpec().getEgress() != null && !np.getSpec().getEgress().isEmpty() ? List.of("Ingress", "Egress")
                : List.of("Ingress");
    }

    private static boolean selects(NetworkPolicy np, Pod p) {
        return Boolean.TRUE.equals(matches(np.getSpec().getPodSelector(), p.getMetadata().getLabels()));
    }

    /** An empty list of peers admits everyone; else any peer. */
    private static Boolean anyPeer(List<NetworkPolicyPeer> peers, Endpoint address, Pod pod, String policyNamespace) {
        if (peers == null || peers.isEmpty()) {
            return true;
        }
        Boolean any = false;
        for (NetworkPolicyPeer p : peers) {
            any = or(any, peer(p, address, pod, policyNamespace));
        }
        return any;
    }

    private static Boolean peer(NetworkPolicyPeer p, Endpoint address, Pod pod, String policyNamespace) {
        if (p.getIpBlock() != null) {
            return ipBlock(p.getIpBlock(), address);
        }
        if (pod == null) {
            return false; // pod and namespace selectors select pods; this address is none
        }
        Boolean ns;
        if (p.getNamespaceSelector() == null) {
            ns = policyNamespace.equals(pod.getMetadata().getNamespace());
        } else {
            ns = matches(p.getNamespaceSelector(), Map.of(NAMESPACE_NAME, pod.getMetadata().getNamespace()), NAMESPACE_NAME);
        }
        Boolean podSel = p.getPodSelector() == null ? true : matches(p.getPodSelector(), pod.getMetadata().getLabels());
        return and(ns, podSel);
    }

    /**
     * Whether an ipBlock holds the address: in {@code cidr} and in none of {@code except}. A block that cannot be read
     * (the API server refuses it, so the snapshot was changed; {@link BadValues} says so at load) is judged as far as
     * what can be read decides: a block of the other family never holds the address, a readable cidr that does not
     * hold it or a readable except that does decide alone; otherwise whether it holds the address is unknown, and so is
     * the policy's answer unless another peer or rule admits.
     */
    private static Boolean ipBlock(IPBlock b, Endpoint address) {
        Endpoint a = address.withoutPort();
        Optional<InterfaceAddress> cidr = block(b.getCidr());
        Boolean in;
        if (cidr.isPresent()) {
            in = cidr.get().contains(a);
        } else {
            in = otherFamily(b.getCidr(), a) ? false : null;
        }
        if (Boolean.FALSE.equals(in)) {
            return false;
        }
        for (String except : list(b.getExcept())) {
            Optional<InterfaceAddress> e = block(except);
            if (e.isPresent() ? e.get().contains(a) : false) {
                return false;
            }
            if (e.isEmpty() && !otherFamily(except, a)) {
                in = null;
            }
        }
        return in;
    }

    /** What {@link #ipBlock} says of a block it cannot read, for the line that names it. */
    static final String UNREADABLE_BLOCK = ", so whether this peer admits an address it might hold is unknown";
    /** What {@link #anyPort} says of a port it cannot read. */
    static final String UNREADABLE_PORT = ", so whether this rule admits a port it might name is unknown";

    private static Optional<InterfaceAddress> block(String cidr) {
        if (cidr == null || BadValues.unreadableCidr(cidr).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(InterfaceAddress.parse(cidr));
    }

    /** Whether the address part of an unreadable block is of the other family than {@code a} (known by its form). */
    private static boolean otherFamily(String cidr, Endpoint a) {
        if (cidr == null) {
            return false;
        }
        int slash = cidr.indexOf('/');
        Optional<Endpoint> at = ClusterIndex.address(slash < 0 ? cidr : cidr.substring(0, slash));
        return at.isPresent() && at.get().isV4() != a.isV4();
    }

    /**
     * Whether some port entry admits the port of {@code protocol} (an entry without protocol means TCP, as the API
     * server defaults it). An entry whose port or endPort the API server would refuse (out of
     * 1-65535, endPort below port) cannot say which ports it meant: it admits none for certain, and makes the answer
     * unknown unless another entry admits.
     */
    private static Boolean anyPort(List<NetworkPolicyPort> ports, int port, Pod to, String protocol) {
        if (ports == null || ports.isEmpty()) {
            return true;
        }
        Boolean any = false;
        for (NetworkPolicyPort p : ports) {
            if (!(p.getProtocol() == null ? "TCP" : p.getProtocol()).equals(protocol)) {
                continue;
            }
            IntOrString want = p.getPort();
            if (want == null) {
                return true;
            }
            if (want.getIntVal() != null) {
                int lo = want.getIntVal();
                int hi = p.getEndPort() != null ? p.getEndPort() : lo;
                if (!BadValues.port(lo) || !BadValues.port(hi) || hi < lo) {
                    any = or(any, null);
                } else if (port >= lo && port <= hi) {
                    return true;
                }
            } else if (want.getStrVal() != null && namedPort(to, want.getStrVal()) == port) {
                return true;
            }
        }
        return any;
    }

    private static int namedPort(Pod p, String name) {
        for (Container c : p.getSpec() == null ? List.<Container>of() : list(p.getSpec().getContainers())) {
            for (ContainerPort cp : list(c.getPorts())) {
                if (name.equals(cp.getName()) && cp.getContainerPort() != null) {
                    return cp.getContainerPort();
                }
            }
        }
        return -1;
    }

    private static Boolean matches(LabelSelector s, Map<String, String> labels) {
        return matches(s, labels == null ? Map.of() : labels, null);
    }

    /**
     * A label selector against labels; {@code onlyKnown}: the one key known (namespace labels), any other key
     * makes the answer unknown.
     */
    private static Boolean matches(LabelSelector s, Map<String, String> labels, String onlyKnown) {
        if (s == null) {
            return true;
        }
        for (Map.Entry<String, String> e : (s.getMatchLabels() == null ? Map.<String, String>of() : s.getMatchLabels()).entrySet()) {
            if (onlyKnown != null && !onlyKnown.equals(e.getKey())) {
                return null;
            }
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (LabelSelectorRequirement r : list(s.getMatchExpressions())) {
            if (onlyKnown != null && !onlyKnown.equals(r.getKey())) {
                return null;
            }
            String v = labels.get(r.getKey());
            List<String> values = list(r.getValues());
            boolean ok = switch (r.getOperator()) {
                case "In" -> v != null && values.contains(v);
                case "NotIn" -> v == null || !values.contains(v);
                case "Exists" -> v != null;
                case "DoesNotExist" -> v == null;
                default -> false;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Three-valued and: false wins, then unknown. */
    private static Boolean and(Boolean a, Boolean b) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
            return false;
        }
        return a == null || b == null ? null : true;
    }

    /** Three-valued or: true wins, then unknown. */
    private static Boolean or(Boolean a, Boolean b) {
        if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
            return true;
        }
        return a == null || b == null ? null : false;
    }
}
