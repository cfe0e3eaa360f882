package io.pcapdiag.cluster;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.LoadBalancerIngress;
import io.fabric8.kubernetes.api.model.LoadBalancerStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodDNSConfig;
import io.fabric8.kubernetes.api.model.PodDNSConfigOption;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServiceSpec;
import io.fabric8.kubernetes.api.model.ServiceStatus;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointConditions;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicySpec;
import io.fabric8.kubernetes.model.jackson.GoCompatibilityModule;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The properties of the fabric8 model that pcapdiag reads, by their JSON names, for each class a snapshot's objects
 * reach through them. A snapshot is converted with every other property of these classes skipped: Jackson builds no
 * deserializer for what they hold (a Pod's volumes, probes, affinity and statuses, a Node's spec, images and
 * conditions). Building those, each class introspected and its annotations parsed, is most of a run given a
 * snapshot: skipping them takes analyze with a scenario's snapshot from about 0.63 to 0.47 s (docs/performance.md).
 * A skipped property is neither read nor checked: an object whose volumes are
 * malformed still loads. Every kept property holds a listed class, {@link IntOrString} or the JDK's.
 *
 * <p>{@code ReadPropertiesTest} holds the list to the code: every getter of the model that a class of pcapdiag
 * calls (read from their bytecode) is of a property kept here, every property kept here is one that is called, and
 * the objects of every snapshot under {@code captures/} answer those getters the same converted either way.
 */
final class ReadProperties extends BeanDeserializerModifier {
    private static final long serialVersionUID = 1L;

    /** Class to the JSON names of the properties read; {@code apiVersion} and {@code kind} are kept on the kinds. */
    static final Map<Class<?>, Set<String>> READ = Map.ofEntries(
            Map.entry(Pod.class, Set.of("apiVersion", "kind", "metadata", "spec", "status")),
            Map.entry(Service.class, Set.of("apiVersion", "kind", "metadata", "spec", "status")),
            Map.entry(Node.class, Set.of("apiVersion", "kind", "metadata", "status")),
            Map.entry(ConfigMap.class, Set.of("apiVersion", "kind", "metadata", "data")),
            Map.entry(EndpointSlice.class, Set.of("apiVersion", "kind", "metadata", "endpoints", "ports")),
            Map.entry(NetworkPolicy.class, Set.of("apiVersion", "kind", "metadata", "spec")),
            Map.entry(ObjectMeta.class, Set.of("name", "namespace", "labels")),
            Map.entry(PodSpec.class, Set.of("containers", "dnsConfig", "dnsPolicy", "hostNetwork", "nodeName")),
            Map.entry(PodDNSConfig.class, Set.of("nameservers", "options", "searches")),
            Map.entry(PodDNSConfigOption.class, Set.of("name", "value")),
            Map.entry(Container.class, Set.of("ports")),
            Map.entry(ContainerPort.class, Set.of("containerPort", "name")),
            Map.entry(PodStatus.class, Set.of("podIP", "podIPs")),
            Map.entry(PodIP.class, Set.of("ip")),
            Map.entry(ServiceSpec.class, Set.of("clusterIP", "clusterIPs", "externalIPs", "externalTrafficPolicy", "ports",
                    "selector")),
            Map.entry(ServicePort.class, Set.of("name", "nodePort", "port", "protocol")),
            Map.entry(ServiceStatus.class, Set.of("loadBalancer")),
            Map.entry(LoadBalancerStatus.class, Set.of("ingress")),
            Map.entry(LoadBalancerIngress.class, Set.of("ip", "ipMode")),
            Map.entry(NodeStatus.class, Set.of("addresses")),
            Map.entry(NodeAddress.class, Set.of("address", "type")),
            Map.entry(Endpoint.class, Set.of("addresses", "conditions", "nodeName", "targetRef")),
            Map.entry(EndpointConditions.class, Set.of("ready", "serving", "terminating")),
            Map.entry(ObjectReference.class, Set.of("kind", "name", "namespace")),
            Map.entry(EndpointPort.class, Set.of("name", "port", "protocol")),
            Map.entry(NetworkPolicySpec.class, Set.of("egress", "ingress", "podSelector", "policyTypes")),
            Map.entry(NetworkPolicyIngressRule.class, Set.of("from", "ports")),
            Map.entry(NetworkPolicyEgressRule.class, Set.of("to", "ports")),
            Map.entry(NetworkPolicyPeer.class, Set.of("ipBlock", "namespaceSelector", "podSelector")),
            Map.entry(IPBlock.class, Set.of("cidr", "except")),
            Map.entry(NetworkPolicyPort.class, Set.of("endPort", "port", "protocol")),
            Map.entry(LabelSelector.class, Set.of("matchExpressions", "matchLabels")),
            Map.entry(LabelSelectorRequirement.class, Set.of("key", "operator", "values")));

    /**
     * The mapper a snapshot's objects are converted with: the model's classes, only the properties of {@link #READ}
     * (unknown ones skipped, as the model's any-setters would keep them apart), and without reading the model's
     * annotations, which the JDK parses whole per class (sundrio's builder annotations with the classes they name
     * among them). They give the properties kept here nothing their getters and setters do not: the same names,
     * types and deserializers, which {@code ReadPropertiesTest} compares class by class against the model's own
     * serialization. The one exception is {@link IntOrString}, built by its annotated creator in the model and by
     * {@link IntOrStringDeserializer} here, through the same constructor. Integers go through the model's Go-compatible
     * deserializer, as in the model's own mapper. Unlike the model's mapper, a null inside a list or a map fails the
     * object (the model keeps it, and pcapdiag's index would read it as an element).
     */
    static ObjectMapper mapper() {
        SimpleModule read = new SimpleModule("pcapdiag-read-properties").setDeserializerModifier(new ReadProperties());
        read.addDeserializer(IntOrString.class, new IntOrStringDeserializer());
        return JsonMapper.builder()
                .disable(MapperFeature.USE_ANNOTATIONS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // A null in a list or a map (podIPs: [null]) makes the object unreadable, said in a line, as a value of
                // the wrong type does: pcapdiag's index reads every element.
                .defaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL))
                .addModule(new GoCompatibilityModule())
                .addModule(read)
                .build();
    }

    /** An int or a string, handed to the model's own constructor as its {@code @JsonCreator} is. */
    static final class IntOrStringDeserializer extends StdDeserializer<IntOrString> {
        private static final long serialVersionUID = 1L;

        IntOrStringDeserializer() {
            super(IntOrString.class);
        }

        @Override
        public IntOrString deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            Object value = ctxt.readValue(p, Object.class);
            try {
                return new IntOrString(value);
            } catch (IllegalArgumentException e) {
                return (IntOrString) ctxt.handleInstantiationProblem(IntOrString.class, value, e);
            }
        }
    }

    @Override
    public List<BeanPropertyDefinition> updateProperties(DeserializationConfig config, BeanDescription desc,
                                                         List<BeanPropertyDefinition> props) {
        Set<String> read = READ.get(desc.getBeanClass());
        if (read == null) {
            return props;
        }
        List<BeanPropertyDefinition> kept = new ArrayList<>(read.size());
        for (BeanPropertyDefinition p : props) {
            if (read.contains(p.getName())) {
                kept.add(p);
            }
        }
        return kept;
    }
}
