package io.pcapdiag.cluster;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;

/**
 * The Service an address:port belongs to, and how.
 *
 * @param service the Service
 * @param port    the matching ServicePort, or null when the address is the Service's but the port is none of its
 * @param way     how the address matched
 * @param lbIpMode for a LoadBalancer ingress match, that ingress's ipMode ({@code VIP} when unset)
 */
public record ServiceMatch(Service service, ServicePort port, Way way, String lbIpMode) {
    /** How an address:port reaches a Service. */
    public enum Way {
        CLUSTER_IP("ClusterIP"), LOAD_BALANCER("LoadBalancer ingress"), EXTERNAL_IP("externalIP"), NODE_PORT("NodePort");

        private final String text;

        Way(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    public String namespace() {
        return service.getMetadata().getNamespace();
    }

    public String name() {
        return service.getMetadata().getName();
    }

    /** The port's name, or its number when it has none (how reports name a Service port). */
    public String portName() {
        if (port == null) {
            return null;
        }
        return port.getName() != null && !port.getName().isEmpty() ? port.getName() : String.valueOf(port.getPort());
    }
}
