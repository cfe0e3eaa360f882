package io.pcapdiag.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.pcapdiag.cluster.ClusterWatch;
import io.pcapdiag.cluster.Kubeconfig;
import io.pcapdiag.context.ClusterContext;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.NodeContext;
import io.pcapdiag.node.Collector;
import io.pcapdiag.node.NodeFacts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * What {@code pcapdiag live} knows beyond its packets: this node's facts, read from /proc and sysfs at the start
 * and again every {@link #RESAMPLE_SECONDS} (counters rise from the start), and the cluster as informers watch it.
 * Neither ever holds up capture: the facts are read on a daemon thread after the first reading, and the
 * cluster's index is swapped atomically; an API server that does not answer is said once and names fall back
 * to addresses.
 */
final class LiveContext implements AutoCloseable {
    static final long RESAMPLE_SECONDS = 30;
    /** How long the API server has to answer before "unavailable" is said. */
    static final long FIRST_VERDICT_MILLIS = 10_000;

    /** {@code --watch-cluster}. */
    enum Watch { auto, on, off }

    private final List<Context> contexts = new ArrayList<>();
    private ScheduledExecutorService sampler;
    private ClusterWatch watch;
    private KubernetesClient client;

    private LiveContext() {
    }

    /**
     * @param nodeFacts  read this node's facts (else none)
     * @param node       {@code --node}, or null
     * @param mode       whether to watch the cluster; auto: inside a pod, or with a kubeconfig named
     * @param kubeconfig {@code --kubeconfig}, or null
     * @param snapshot   whether {@code --cluster} gave a snapshot (then auto does not watch)
     * @param env        the environment (KUBERNETES_SERVICE_HOST, KUBECONFIG)
     * @param say        one line each, for stderr
     */
    static LiveContext start(boolean nodeFacts, String node, Watch mode, Path kubeconfig, boolean snapshot,
            Map<String, String> env, Consumer<String> say) {
        LiveContext c = new LiveContext();
        if (nodeFacts) {
            c.readNodeFacts(node, say);
        }
        if (watches(mode, kubeconfig, snapshot, env)) {
            c.watchCluster(kubeconfig, say);
        }
        return c;
    }

    /** Whether the cluster is watched: on; or auto inside a pod or with a kubeconfig given, unless a snapshot is. */
    static boolean watches(Watch mode, Path kubeconfig, boolean snapshot, Map<String, String> env) {
        return switch (mode) {
            case on -> true;
            case off -> false;
            case auto -> !snapshot && (kubeconfig != null || env.get("KUBERNETES_SERVICE_HOST") != null);
        };
    }

    private void readNodeFacts(String node, Consumer<String> say) {
        Collector collector = new Collector(Collector.Settings.live(node));
        NodeFacts start = collector.collect();
        start.warnings().forEach(w -> say.accept("node facts: " + w));
        AtomicReference<NodeFacts> current = new AtomicReference<>(start);
        sampler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pcapdiag-node-facts");
            t.setDaemon(true);
            return t;
        });
        sampler.scheduleWithFixedDelay(() -> {
            try {
                current.set(collector.sampled(start));
            } catch (RuntimeException e) {
                // The last reading stands; the next one tries again.
            }
        }, RESAMPLE_SECONDS, RESAMPLE_SECONDS, TimeUnit.SECONDS);
        contexts.add(new NodeContext(current::get));
        say.accept("node facts: read from this node (" + start.nodeName().orElse("name unknown") + "), counters again every "
                + RESAMPLE_SECONDS + " s");
    }

    private void watchCluster(Path kubeconfig, Consumer<String> say) {
        client = new KubernetesClientBuilder().withConfig(Kubeconfig.load(kubeconfig)).build();
        String where = client.getMasterUrl().toString();
        watch = ClusterWatch.start(client, new ClusterWatch.Listener() {
            @Override
            public void available() {
                say.accept("cluster: watching the API server at " + where + ": findings name Services and Pods");
            }

            @Override
            public void unavailable(String why) {
                say.accept("cluster: " + why + "; findings name addresses only until it answers (capture goes on)");
            }
        }, FIRST_VERDICT_MILLIS);
        contexts.add(new ClusterContext(watch::index, "the cluster"));
    }

    List<Context> contexts() {
        return List.copyOf(contexts);
    }

    /** The client the cluster is watched with, or null when it is not (live --events posts with it). */
    KubernetesClient client() {
        return client;
    }

    @Override
    public void close() {
        if (sampler != null) {
            sampler.shutdownNow();
        }
        if (watch != null) {
            watch.close();
        }
    }
}
