package io.pcapdiag.live;

import io.pcapdiag.capture.Capture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;

/**
 * The interfaces {@code -i} selects, one {@link InterfaceCapture} each, all feeding one bounded queue.
 * Every method but {@link #admit} and {@link #enqueue} (called by capture threads) runs on the analysis
 * thread. {@link #rescan} opens interfaces that appeared since the last scan and reaps those whose
 * capture ended (the interface vanished): one warning each, capture goes on elsewhere.
 */
public final class LiveCapture {
    /** Packets waiting for the analysis thread, over all interfaces. */
    static final int QUEUE_CAPACITY = 1 << 16;

    /** Lists the interfaces of this network namespace. */
    @FunctionalInterface
    interface DeviceLister {
        List<String> names() throws PcapNativeException;
    }

    private final CaptureSettings settings;
    private final Consumer<String> warn;
    private final DeviceLister devices;
    private final BlockingQueue<Captured> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicLong admitted = new AtomicLong();
    private volatile boolean countReached;
    private volatile boolean draining;
    /** Set when a capture thread would not stop: nobody drains the queue any more. */
    private volatile boolean abandoned;
    private final Map<String, InterfaceCapture> open = new LinkedHashMap<>();
    private final List<InterfaceCapture> all = new ArrayList<>();
    private final Map<String, Integer> generations = new HashMap<>();
    /** Per interface, the last open failure reported, so a down interface warns once, not every scan. */
    private final Map<String, String> failures = new HashMap<>();
    private final Map<String, String> openFailures = new HashMap<>();
    /** Scans so far: the first one's problems are the session's to say (fatal when nothing opened, else warnings). */
    private int scans;
    private final List<String> warnedMissing = new ArrayList<>();
    private int nextIndex;
    private boolean permissionDenied;

    LiveCapture(CaptureSettings settings, int firstIndex, Consumer<String> warn, DeviceLister devices) {
        this.settings = settings;
        this.nextIndex = firstIndex;
        this.warn = warn;
        this.devices = devices;
    }

    /** The interfaces libpcap can see in this network namespace. */
    static List<String> allDevices() throws PcapNativeException {
        List<String> names = new ArrayList<>();
        for (PcapNetworkInterface nif : Pcaps.findAllDevs()) {
            names.add(nif.getName());
        }
        return names;
    }

    /**
     * Opens every selected interface not open yet, and reaps captures that ended.
     *
     * @return the captures opened by this scan
     */
    List<InterfaceCapture> rescan() {
        List<String> names;
        try {
            names = devices.names();
        } catch (PcapNativeException e) {
            warnOnce("(scan)", "listing interfaces failed: " + InterfaceCapture.libpcapMessage(e));
            return List.of();
        }
        boolean first = scans++ == 0;
        for (String m : settings.interfaces().missing(names)) {
            if (!warnedMissing.contains(m)) {
                warnedMissing.add(m);
                if (!first) {
                    warn.accept("interface " + m + " does not exist (yet); it will be captured when it appears");
                }
            }
        }
        List<InterfaceCapture> opened = new ArrayList<>();
        for (String device : settings.interfaces().select(names)) {
            if (open.containsKey(device)) {
                continue;
            }
            int gen = generations.getOrDefault(device, 0) + 1;
            Capture capture = new Capture(nextIndex, WritePaths.captureName(device, gen));
            Path file = settings.write() == null ? null
                    : WritePaths.of(settings.write(), settings.interfaces().single(), device, gen);
            try {
                InterfaceCapture c = InterfaceCapture.open(device, capture, settings, file, this);
                nextIndex++;
                generations.put(device, gen);
                open.put(device, c);
                all.add(c);
                opened.add(c);
                failures.remove(device);
                openFailures.remove(device);
                if (!io.pcapdiag.decode.LinkTypes.supported(c.linkType())
                        && unknownLinkTypes.add(device + "/" + c.linkType())) {
                    warn.accept(device + ": link type " + io.pcapdiag.decode.LinkTypes.name(c.linkType())
                            + " is not one pcapdiag decodes: its packets are counted as malformed (unknown_link_type) and no SYN on it is seen");
                }
            } catch (java.io.IOException e) {
                openFailures.put(device, "cannot write " + device + "'s packets: " + e.getMessage());
                if (first) {
                    failures.put(device, openFailures.get(device));
                } else {
                    warnOnce(device, openFailures.get(device));
                }
            } catch (PcapNativeException | NotOpenException e) {
                String msg = e instanceof PcapNativeException p ? InterfaceCapture.libpcapMessage(p) : e.toString();
                if (Privileges.isPermissionError(msg)) {
                    permissionDenied = true;
                }
                openFailures.put(device, "cannot capture on " + device + ": " + msg);
                if (first) {
                    failures.put(device, openFailures.get(device));
                } else {
                    warnOnce(device, openFailures.get(device));
                }
            }
        }
        return opened;
    }

    /** Captures whose thread ended on its own since the last call; each is warned about once. */
    List<InterfaceCapture> reap() {
        List<InterfaceCapture> gone = new ArrayList<>();
        for (var it = open.values().iterator(); it.hasNext(); ) {
            InterfaceCapture c = it.next();
            String w = c.writeFailure();
            if (w != null) {
                warnOnce(c.device + " (write)", w + "; capture and analysis go on");
            }
            if (c.ended()) {
                it.remove();
                gone.add(c);
                if (!countReached && !draining) {
                    String why = c.endReason() == null ? "its capture ended" : c.endReason();
                    warn.accept("interface " + c.device + " went away (" + why + "); capture goes on on "
                            + (open.isEmpty() ? "no interface until one matches -i " + settings.interfaces()
                                    : String.join(",", open.keySet())));
                }
            }
        }
        return gone;
    }

    /** Interfaces (with their link type) already said to have one pcapdiag does not decode. */
    private final java.util.Set<String> unknownLinkTypes = new java.util.HashSet<>();

    private void warnOnce(String key, String message) {
        if (!message.equals(failures.get(key))) {
            failures.put(key, message);
            warn.accept(message);
        }
    }

    /** Called by capture threads for every packet: false once {@code --count} packets were admitted. */
    boolean admit() {
        long limit = settings.count();
        if (limit <= 0) {
            return true;
        }
        if (admitted.incrementAndGet() > limit) {
            countReached = true;
            return false;
        }
        if (admitted.get() == limit) {
            countReached = true;
        }
        return true;
    }

    /**
     * Called by capture threads: waits while the queue is full (the kernel buffer absorbs the burst and
     * counts what it cannot hold).
     */
    void enqueue(Captured c) {
        try {
            while (!queue.offer(c, 100, TimeUnit.MILLISECONDS)) {
                if (abandoned) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    BlockingQueue<Captured> queue() {
        return queue;
    }

    boolean countReached() {
        return countReached;
    }

    /** Interfaces capturing now. */
    Collection<InterfaceCapture> open() {
        return open.values();
    }

    /** Why interfaces that -i selected could not be opened (the last reason each), by name. */
    java.util.SortedMap<String, String> openFailures() {
        return new java.util.TreeMap<>(openFailures);
    }

    /** Interfaces -i names that do not exist, as of the last scan. */
    List<String> missing() {
        return List.copyOf(warnedMissing);
    }

    /** Whether some interface could not be opened for lack of privileges. */
    boolean permissionDenied() {
        return permissionDenied;
    }

    /**
     * Stops every capture and waits for its thread, passing what is still queued to {@code drain} so that
     * no capture thread waits on a full queue forever.
     */
    void stopAll(Consumer<Captured> drain) throws InterruptedException {
        draining = true;
        for (InterfaceCapture c : all) {
            c.stop();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (InterfaceCapture c : all) {
            while (!c.join(20)) {
                for (Captured p = queue.poll(); p != null; p = queue.poll()) {
                    drain.accept(p);
                }
                if (System.nanoTime() > deadline) {
                    // A thread stuck in native code: give up on it rather than hang the shutdown.
                    abandoned = true;
                    warn.accept("interface " + c.device + ": capture thread did not stop; its last packets may be missing");
                    break;
                }
            }
        }
        for (Captured p = queue.poll(); p != null; p = queue.poll()) {
            drain.accept(p);
        }
    }
}
