package io.pcapdiag.context;

import java.util.List;
import java.util.Map;

/**
 * What the cluster says about the Service behind an address:port, as far as causes need it.
 *
 * @param ref                   the Service and its port, as reports name it
 * @param matchedBy             how the address matched: ClusterIP, LoadBalancer ingress, externalIP, NodePort
 * @param portInService         false when the address is the Service's but the port is none of its ports
 * @param ports                 the Service's ports (for NodePort matches, its node ports)
 * @param externalTrafficPolicy Cluster or Local
 * @param readyEndpoints        ready endpoints of the matched port, on any node
 * @param readyEndpointsByNode  ready endpoints of the matched port per node name
 * @param lbIpMode              for a LoadBalancer ingress match, its ipMode (VIP when unset); else null
 * @param selector              the Service's selector (empty for a Service without one)
 * @param fact                  the sentence naming the Service, with its source
 */
public record ServiceFacts(Ref ref, String matchedBy, boolean portInService, List<Integer> ports,
                           String externalTrafficPolicy, int readyEndpoints, Map<String, Integer> readyEndpointsByNode,
                           String lbIpMode, Map<String, String> selector, Fact fact) {
    public ServiceFacts {
        ports = List.copyOf(ports);
        readyEndpointsByNode = Map.copyOf(readyEndpointsByNode);
        selector = Map.copyOf(selector);
    }

    /** Ready endpoints of the matched port on {@code node}. */
    public int readyOn(String node) {
        return readyEndpointsByNode.getOrDefault(node, 0);
    }
}
