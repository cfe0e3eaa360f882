package io.pcapdiag.collect;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesListBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.pcapdiag.cluster.Kubeconfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The cluster as {@code analyze --cluster} reads it, taken through the API server once: the kinds live's informers
 * watch ({@code cluster.ClusterWatch}: Services, EndpointSlices, Pods, Nodes, NetworkPolicies and kube-proxy's
 * ConfigMap), listed with get/list only (the DaemonSet's RBAC), written as the List that {@code kubectl get -o json}
 * prints. A kind that cannot be listed (forbidden, the server gone) is left out and said; the rest is kept.
 */
public final class ClusterSnapshot {
    /** How long the API server has for each request: a node without one should not wait long for it. */
    static final int TIMEOUT_MILLIS = 10_000;

    /**
     * What was taken.
     *
     * @param objects the objects listed, by kind, namespace and name
     * @param missing per kind that could not be listed, why (one line)
     * @param server  the API server's address
     */
    public record Taken(List<HasMetadata> objects, Map<String, String> missing, String server) {
    }

    private ClusterSnapshot() {
    }

    /**
     * The client configuration: {@code kubeconfig} when given, else fabric8's own discovery (the pod's service
     * account, $KUBECONFIG, ~/.kube/config); one try per request, {@link #TIMEOUT_MILLIS} each.
     */
    public static Config config(Path kubeconfig) {
        Config config = Kubeconfig.load(kubeconfig);
        config.setRequestRetryBackoffLimit(0);
        config.setConnectionTimeout(TIMEOUT_MILLIS);
        config.setRequestTimeout(TIMEOUT_MILLIS);
        return config;
    }

    /** Lists every kind through {@code client}. */
    public static Taken take(KubernetesClient client) {
        Map<String, Supplier<List<? extends HasMetadata>>> kinds = new LinkedHashMap<>();
        kinds.put("services", () -> client.services().inAnyNamespace().list().getItems());
        kinds.put("endpointslices", () -> client.discovery().v1().endpointSlices().inAnyNamespace().list().getItems());
        kinds.put("pods", () -> client.pods().inAnyNamespace().list().getItems());
        kinds.put("nodes", () -> client.nodes().list().getItems());
        kinds.put("networkpolicies", () -> client.network().v1().networkPolicies().inAnyNamespace().list().getItems());
        kinds.put("configmap kube-system/kube-proxy", () -> {
            HasMetadata cm = client.configMaps().inNamespace("kube-system").withName("kube-proxy").get();
            return cm == null ? List.of() : List.of(cm);
        });
        List<HasMetadata> objects = new ArrayList<>();
        Map<String, String> missing = new LinkedHashMap<>();
        kinds.forEach((kind, list) -> {
            try {
                objects.addAll(list.get());
            } catch (RuntimeException e) {
                missing.put(kind, oneLine(e));
            }
        });
        objects.sort(Comparator.comparing((HasMetadata o) -> o.getKind())
                .thenComparing(o -> String.valueOf(o.getMetadata().getNamespace()))
                .thenComparing(o -> o.getMetadata().getName()));
        return new Taken(objects, missing, client.getMasterUrl().toString());
    }

    /** Takes it with a client of {@code config}. */
    public static Taken take(Config config) {
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
            return take(client);
        }
    }

    /** Writes the objects as one {@code kind: List}. */
    public static void write(Taken taken, Path file) throws IOException {
        String json = new io.fabric8.kubernetes.client.utils.KubernetesSerialization()
                .asJson(new KubernetesListBuilder().withItems(taken.objects()).build());
        Files.writeString(file, json + "\n", StandardCharsets.UTF_8);
    }

    static String oneLine(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && (t.getMessage() == null || t.getMessage().isBlank())) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.toString() : t.getMessage();
        return m.lines().findFirst().orElse(m).trim();
    }
}
