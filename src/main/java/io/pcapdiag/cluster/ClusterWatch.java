package io.pcapdiag.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Live mode's view of the cluster: fabric8 informers on the kinds a snapshot holds (get, list and watch
 * only), their caches turned into a fresh immutable {@link ClusterIndex} at most once per
 * {@link #REBUILD_MILLIS} when something changed. The analysis thread only ever reads the current index
 * (an atomic reference): a slow or absent API server never holds up capture. When the server cannot be
 * reached, or stops answering, the listener hears it once; the last index stays readable, marked stale.
 */
public final class ClusterWatch implements AutoCloseable {
    /** How often the index is rebuilt at most, and the server's state looked at. */
    static final long REBUILD_MILLIS = 1000;

    /** Hears each change of the API server's state once. */
    public interface Listener {
        /** Every informer has listed its kind and is watching: names are current. */
        void available();

        /** Some informer is not watching (yet, or any more): names are those of the last index. */
        void unavailable(String why);
    }

    private final KubernetesClient client;
    private final Listener listener;
    private final List<SharedIndexInformer<? extends HasMetadata>> informers = new ArrayList<>();
    private final AtomicReference<ClusterIndex> index = new AtomicReference<>(ClusterIndex.empty());
    private final AtomicBoolean changed = new AtomicBoolean(true);
    private final AtomicReference<String> lastError = new AtomicReference<>();
    private final ScheduledExecutorService timer;
    private volatile Boolean available;
    private volatile boolean everSynced;

    private ClusterWatch(KubernetesClient client, Listener listener) {
        this.client = client;
        this.listener = listener;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "pcapdiag-cluster");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts watching; returns at once (the informers list and watch in the background).
     *
     * @param firstVerdictMillis how long the server has to answer before "unavailable" is said
     */
    public static ClusterWatch start(KubernetesClient client, Listener listener, long firstVerdictMillis) {
        ClusterWatch w = new ClusterWatch(client, listener);
        w.inform(client.services().inAnyNamespace().runnableInformer(0));
        w.inform(client.discovery().v1().endpointSlices().inAnyNamespace().runnableInformer(0));
        w.inform(client.pods().inAnyNamespace().runnableInformer(0));
        w.inform(client.nodes().runnableInformer(0));
        w.inform(client.network().v1().networkPolicies().inAnyNamespace().runnableInformer(0));
        w.inform(client.configMaps().inNamespace("kube-system").withName("kube-proxy").runnableInformer(0));
        for (SharedIndexInformer<? extends HasMetadata> i : w.informers) {
            i.start().whenComplete((ok, e) -> {
                if (e != null) {
                    w.lastError.set(oneLine(e));
                }
            });
        }
        w.timer.scheduleWithFixedDelay(w::tick, Math.min(REBUILD_MILLIS, firstVerdictMillis), REBUILD_MILLIS, TimeUnit.MILLISECONDS);
        w.timer.schedule(w::firstVerdict, firstVerdictMillis, TimeUnit.MILLISECONDS);
        return w;
    }

    private <T extends HasMetadata> void inform(SharedIndexInformer<T> i) {
        i.exceptionHandler((watchStarted, e) -> {
            lastError.set(oneLine(e));
            return true; // keep retrying: the server may come back
        });
        i.addEventHandler(new ResourceEventHandler<T>() {
            @Override
            public void onAdd(T obj) {
                changed.set(true);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                changed.set(true);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                changed.set(true);
            }
        });
        informers.add(i);
    }

    /** The cluster as last seen; never blocks. */
    public ClusterIndex index() {
        return index.get();
    }

    private boolean watching() {
        for (SharedIndexInformer<? extends HasMetadata> i : informers) {
            if (!i.hasSynced() || !i.isWatching()) {
                return false;
            }
        }
        return true;
    }

    private void tick() {
        try {
            boolean up = watching();
            if (up) {
                everSynced = true;
            }
            if (everSynced && changed.getAndSet(false)) { // not consumed before the first sync
                index.set(build());
            }
            if (up && !Boolean.TRUE.equals(available)) {
                available = true;
                listener.available();
            } else if (!up && Boolean.TRUE.equals(available)) {
                available = false;
                listener.unavailable(why());
            }
        } catch (RuntimeException e) {
            lastError.set(oneLine(e)); // the next tick tries again; the analysis keeps the last index
        }
    }

    /** No answer within the first verdict's time: say so once (later recoveries are said by tick). */
    private void firstVerdict() {
        if (available == null && !watching()) {
            available = false;
            listener.unavailable(why());
        }
    }

    private String why() {
        String e = lastError.get();
        return "the API server at " + client.getMasterUrl() + " is not being watched" + (e != null ? ": " + e : "");
    }

    private ClusterIndex build() {
        ClusterIndex.Builder b = new ClusterIndex.Builder();
        for (SharedIndexInformer<? extends HasMetadata> i : informers) {
            for (HasMetadata o : i.getStore().list()) {
                b.add(o);
            }
        }
        return b.build();
    }

    private static String oneLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        for (SharedIndexInformer<? extends HasMetadata> i : informers) {
            i.stop();
        }
        client.close();
    }
}
