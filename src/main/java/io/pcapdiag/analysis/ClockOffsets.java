package io.pcapdiag.analysis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.MergedSource;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.diagnosis.ClockOffset;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Aligns the clocks of captures taken on different nodes ({@code --label FILE=NODE}) from the connection
 * attempts they share: the same SYN (client, port, ISN) seen on two nodes was seen there at nearly the
 * same moment (a network hop apart), so the median difference of its timestamps is the difference of the
 * nodes' clocks. No clock synchronisation is needed; only attempts seen on both count.
 * <p>
 * Which node saw it first is told by its TTL (hop limit), which each router on the way lowers: the node
 * with the higher one is upstream, and its last sighting of the SYN (eth0 out) is taken as just before the
 * downstream node's first (eth0 in), so that a path reads in the order the SYN travelled. With equal TTLs
 * (bridged, or only eth0 on both) the first sightings are taken as simultaneous.
 */
final class ClockOffsets {
    /** SYNs remembered per node: enough to match a node capture's attempts, bounded for a flood. */
    private static final int MAX_SYNS = 1 << 20;

    private ClockOffsets() {
    }

    private record Key(long hi, long lo, int port, int isn) {
    }

    /**
     * The offset of each labelled node's clock from the first labelled node's, by node; empty when fewer
     * than two nodes are labelled. A node that shares no attempt with the reference gets no entry.
     */
    static Map<String, ClockOffset> estimate(List<Capture> captures, MergedSource.Opener reader) {
        Map<String, List<Capture>> byNode = new LinkedHashMap<>();
        for (Capture c : captures) {
            if (c.node() != null) {
                byNode.computeIfAbsent(c.node(), n -> new ArrayList<>()).add(c);
            }
        }
        if (byNode.size() < 2) {
            return Map.of();
        }
        Map<String, Map<Key, Seen>> syns = new LinkedHashMap<>();
        byNode.forEach((node, caps) -> syns.put(node, firstSyns(caps, reader)));
        String reference = byNode.keySet().iterator().next();
        Map<Key, Seen> ref = syns.get(reference);
        Map<String, ClockOffset> out = new LinkedHashMap<>();
        for (Map.Entry<String, Map<Key, Seen>> e : syns.entrySet()) {
            if (e.getKey().equals(reference)) {
                continue;
            }
            List<Long> deltas = new ArrayList<>();
            e.getValue().forEach((k, t) -> {
                Seen r = ref.get(k);
                if (r != null) {
                    deltas.add(t.offsetFrom(r));
                }
            });
            if (!deltas.isEmpty()) {
                long[] d = deltas.stream().mapToLong(Long::longValue).toArray();
                Arrays.sort(d);
                out.put(e.getKey(), new ClockOffset(e.getKey(), reference, d[d.length / 2], d.length));
            }
        }
        return out;
    }

    /** How long one transmission of a SYN takes across a node, at most: a retransmission comes a second later. */
    private static final long ONE_CROSSING = 200_000_000L;

    /** When and with which TTL one node's captures saw a SYN: first and last time of its first transmission, highest TTL. */
    private static final class Seen {
        long first;
        long last;
        int ttl;

        Seen(long nanos, int ttl) {
            first = nanos;
            last = nanos;
            this.ttl = ttl;
        }

        void add(long nanos, int ttl) {
            if (nanos < first) {
                first = nanos;
                if (last - first > ONE_CROSSING) {
                    last = first;
                }
            } else if (nanos > last && nanos - first <= ONE_CROSSING) {
                last = nanos; // a later copy of the same transmission; a retransmission (a second on) is not
            }
            this.ttl = Math.max(this.ttl, ttl);
        }

        /** How far this node's clock is ahead of {@code ref}'s, judged by this one SYN. */
        long offsetFrom(Seen ref) {
            if (ref.ttl > ttl) {
                return first - (ref.last + 1); // downstream: it arrived here just after it left the reference node
            }
            if (ttl > ref.ttl) {
                return (last + 1) - ref.first; // upstream: it left here just before it reached the reference node
            }
            return first - ref.first;
        }
    }

    /** Each SYN as these captures saw it; unreadable ones contribute nothing (the main read reports them). */
    private static Map<Key, Seen> firstSyns(List<Capture> caps, MergedSource.Opener reader) {
        Map<Key, Seen> first = new HashMap<>();
        Decoder decoder = new Decoder();
        PacketView v = new PacketView();
        for (Capture c : caps) {
            try (FrameSource src = reader.open(c)) {
                for (Frame f = src.next(); f != null; f = src.next()) {
                    if (decoder.decode(f, v) == PacketView.Kind.TCP
                            && (v.flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == PacketView.SYN
                            && (first.size() < MAX_SYNS)) {
                        Seen seen = first.get(new Key(v.srcHi, v.srcLo, v.srcPort, v.seq));
                        if (seen == null) {
                            first.put(new Key(v.srcHi, v.srcLo, v.srcPort, v.seq), new Seen(f.nanos, v.ttl));
                        } else {
                            seen.add(f.nanos, v.ttl);
                        }
                    }
                }
            } catch (CaptureException | IOException | RuntimeException e) {
                // The analysis proper reads it again and reports what is wrong with it.
            }
        }
        return first;
    }
}
