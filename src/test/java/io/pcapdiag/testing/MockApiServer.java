package io.pcapdiag.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;

/**
 * The fabric8 Kubernetes mock server (CRUD mode) as a process of its own, for tests that run {@code pcapdiag live}
 * inside a lab network namespace: started in that namespace, it creates every object of a {@code kubectl get -o json}
 * List through the API, writes a kubeconfig naming itself, prints "mock api ready", and serves until killed.
 *
 * <p>usage: MockApiServer SNAPSHOT.json KUBECONFIG
 */
public final class MockApiServer {
    private MockApiServer() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: MockApiServer SNAPSHOT.json KUBECONFIG");
            System.exit(2);
        }
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init(java.net.InetAddress.getLoopbackAddress(), 0);
        KubernetesSerialization model = new KubernetesSerialization();
        JsonNode list = new ObjectMapper().readTree(Path.of(args[0]).toFile());
        int created = 0;
        try (KubernetesClient client = server.createClient()) {
            for (JsonNode item : list.path("items")) {
                HasMetadata o = model.unmarshal(item.toString());
                client.resource(o).create();
                created++;
            }
        }
        String kubeconfig = String.join("\n",
                "apiVersion: v1", "kind: Config", "current-context: mock",
                "clusters:", "- name: mock", "  cluster:", "    server: http://127.0.0.1:" + server.getPort(),
                "contexts:", "- name: mock", "  context:", "    cluster: mock", "    user: u",
                "users:", "- name: u", "  user:", "    token: t", "");
        Path target = Path.of(args[1]);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.writeString(tmp, kubeconfig, StandardCharsets.UTF_8);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        System.out.println("mock api ready: " + created + " objects at http://127.0.0.1:" + server.getPort());
        System.out.flush();
        Thread.currentThread().join();
    }
}
