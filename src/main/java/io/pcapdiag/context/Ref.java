package io.pcapdiag.context;

/**
 * The Kubernetes object an address belongs to, as reports name it: {@code svc kube-system/kube-dns:dns},
 * {@code pod shop/cart-7d9f5c6b8-x2k4p, node-b}, {@code node node-b}.
 *
 * @param kind      service, pod or node
 * @param namespace null for nodes
 * @param name      the object's name
 * @param port      a Service port's name (or number when it has none); null otherwise
 * @param node      the node a pod runs on; null otherwise
 */
public record Ref(String kind, String namespace, String name, String port, String node) {
    public static final String SERVICE = "service";
    public static final String POD = "pod";
    public static final String NODE = "node";

    /** {@code svc ns/name:port}, {@code pod ns/name, node}, {@code node name}. */
    public String text() {
        return switch (kind) {
            case SERVICE -> "svc " + namespace + "/" + name + (port != null ? ":" + port : "");
            case POD -> "pod " + namespace + "/" + name + (node != null ? ", " + node : "");
            default -> kind + " " + (namespace != null ? namespace + "/" : "") + name;
        };
    }
}
