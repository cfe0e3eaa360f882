package io.pcapdiag.collect;

import io.fabric8.kubernetes.client.Config;
import io.pcapdiag.live.CaptureSettings;
import io.pcapdiag.live.LiveException;
import io.pcapdiag.live.Recording;
import io.pcapdiag.node.Collector;
import io.pcapdiag.node.NodeFacts;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One {@code pcapdiag collect}: the node's facts and the cluster snapshot first (so that their requests, kube-proxy's
 * {@code /proxyMode} and the API server's, stay out of the capture), then the capture for its duration, then the
 * facts again (the counters' rise over the capture), written into one bundle directory with its {@link Manifest}.
 * Whatever cannot be taken is said in the manifest and on stderr, and the rest is still written.
 */
public final class Collect {
    /** The node facts document in a bundle. */
    public static final String NODE_FACTS = "node-facts.json";
    /** The cluster snapshot in a bundle. */
    public static final String CLUSTER = "cluster.json";

    /**
     * What to take.
     *
     * @param capture     how to capture (its {@code write} is replaced by the bundle's directory)
     * @param interfaces  {@code -i} as given, for the manifest
     * @param duration    how long to capture, nanoseconds; 0: until stopped
     * @param rescanNanos how often to look for new interfaces
     * @param node        {@code --node}, or null
     * @param nodeFacts   whether to read the node's facts
     * @param cluster     the API server's configuration, or null when it is not asked
     * @param noCluster   why it is not asked (when {@code cluster} is null)
     * @param version     this pcapdiag's version
     */
    public record Settings(CaptureSettings capture, String interfaces, long duration, long rescanNanos, String node,
                           boolean nodeFacts, Config cluster, String noCluster, String version) {
    }

    private final Settings settings;
    private final Consumer<String> say;
    private volatile Recording recording;
    private volatile boolean stopRequested;

    public Collect(Settings settings, Consumer<String> say) {
        this.settings = settings;
        this.say = say;
    }

    /** Ends the capture early (SIGINT, SIGTERM; any thread): the bundle is still written. */
    public void requestStop() {
        stopRequested = true;
        Recording r = recording;
        if (r != null) {
            r.requestStop();
        }
    }

    /**
     * Takes everything into {@code dir} (an empty directory).
     *
     * @param capturing told once the capture runs
     * @return the manifest written
     */
    public Manifest run(Path dir, Runnable capturing) throws IOException, InterruptedException {
        List<Manifest.NotTaken> notTaken = new ArrayList<>();
        Collector collector = null;
        NodeFacts start = null;
        if (settings.nodeFacts()) {
            collector = new Collector(Collector.Settings.of(settings.node()));
            start = collector.collect();
            say.accept("node facts: read (" + start.nodeName().orElse("name unknown") + "); read again when the capture ends");
        } else {
            notTaken.add(new Manifest.NotTaken("node_facts", "--no-node-facts"));
        }
        String cluster = null;
        if (settings.cluster() != null) {
            ClusterSnapshot.Taken taken = ClusterSnapshot.take(settings.cluster());
            if (taken.objects().isEmpty() && !taken.missing().isEmpty()) {
                String why = "the API server at " + taken.server() + " did not answer: "
                        + taken.missing().values().iterator().next();
                notTaken.add(new Manifest.NotTaken("cluster", why));
                say.accept("cluster: " + why + "; the bundle has no cluster snapshot");
            } else {
                ClusterSnapshot.write(taken, dir.resolve(CLUSTER));
                cluster = CLUSTER;
                taken.missing().forEach((kind, why) -> notTaken.add(new Manifest.NotTaken("cluster", kind + ": " + why)));
                say.accept("cluster: " + taken.objects().size() + " objects from the API server at " + taken.server()
                        + (taken.missing().isEmpty() ? "" : "; not listed: " + String.join(", ", taken.missing().keySet())));
            }
        } else {
            notTaken.add(new Manifest.NotTaken("cluster", settings.noCluster()));
            say.accept("cluster: not asked (" + settings.noCluster() + ")");
        }

        CaptureSettings c = settings.capture();
        Recording r = new Recording(new CaptureSettings(c.interfaces(), c.filter(), c.snaplen(), c.bufferSize(),
                c.promiscuous(), dir, c.count(), false, 0), settings.rescanNanos(), say);
        recording = r;
        Instant started = Instant.now();
        List<Manifest.CaptureFile> captures = new ArrayList<>();
        if (!stopRequested) {
            try {
                for (Recording.Written w : r.run(settings.duration(), capturing)) {
                    captures.add(new Manifest.CaptureFile(dir.relativize(w.file()).toString(), w.device(), w.linkType(),
                            w.stats().received(), w.stats().droppedByKernel(), w.stats().droppedByInterface(), w.ended()));
                    if (w.stats().droppedByKernel() > 0) {
                        say.accept(w.device() + ": the kernel dropped " + w.stats().droppedByKernel()
                                + " packets (the capture buffer was full): the capture misses them");
                    }
                }
            } catch (LiveException e) {
                notTaken.add(new Manifest.NotTaken("capture", e.getMessage()));
                say.accept("capture: " + e.getMessage());
            }
        } else {
            notTaken.add(new Manifest.NotTaken("capture", "stopped before the capture began"));
        }
        Instant ended = Instant.now();

        String facts = null;
        if (collector != null) {
            NodeFacts end = collector.sampled(start);
            try (Writer w = Files.newBufferedWriter(dir.resolve(NODE_FACTS), StandardCharsets.UTF_8)) {
                end.write(w);
            }
            facts = NODE_FACTS;
        }
        String node = start == null ? settings.node() : start.nodeName().orElse(settings.node());
        Manifest m = new Manifest(Manifest.VERSION, settings.version(), node, time(started), time(ended),
                settings.interfaces(), captures, facts, cluster, notTaken);
        m.write(dir);
        return m;
    }

    private static String time(Instant t) {
        return t.truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
