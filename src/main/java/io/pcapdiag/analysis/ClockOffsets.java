package io.pcapdiag.analysis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.MergedSource;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.PacketView;
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
 */
final class ClockOffsets {
    /** SYNs remembered per node: enough to match a node capture's attempts, bounded for a flood. */
    private static final int MAX_SYNS = 1 << 20;

    /** How one node's clock relates to the reference node's. */
    record Offset(String node, String reference, long nanos, int matched) {
    }

    private ClockOffsets() {
    }

    private record Key(long hi, long lo, int port, int isn) {
    }

    /**
     * The offset of each labelled node's clock from the first labelled node's, by node; empty when fewer
     * than two nodes are labelled. A node that shares no attempt with the reference gets no entry.
     */
    static Map<String, Offset> estimate(List<Capture> captures, MergedSource.Opener reader) {
        Map<String, List<Capture>> byNode = new LinkedHashMap<>();
        for (Capture c : captures) {
            if (c.node() != null) {
                byNode.computeIfAbsent(c.node(), n -> new ArrayList<>()).add(c);
            }
        }
        if (byNode.size() < 2) {
            return Map.of();
        }
        Map<String, Map<Key, Long>> syns = new LinkedHashMap<>();
        byNode.forEach((node, caps) -> syns.put(node, firstSyns(caps, reader)));
        String reference = byNode.keySet().iterator().next();
        Map<Key, Long> ref = syns.get(reference);
        Map<String, Offset> out = new LinkedHashMap<>();
        for (Map.Entry<String, Map<Key, Long>> e : syns.entrySet()) {
            if (e.getKey().equals(reference)) {
                continue;
            }
            List<Long> deltas = new ArrayList<>();
            e.getValue().forEach((k, t) -> {
                Long r = ref.get(k);
                if (r != null) {
                    deltas.add(t - r);
                }
            });
            if (!deltas.isEmpty()) {
                long[] d = deltas.stream().mapToLong(Long::longValue).toArray();
                Arrays.sort(d);
                out.put(e.getKey(), new Offset(e.getKey(), reference, d[d.length / 2], d.length));
            }
        }
        return out;
    }

    /** The first time each SYN was seen in these captures; unreadable ones contribute nothing (the main read reports them). */
    private static Map<Key, Long> firstSyns(List<Capture> caps, MergedSource.Opener reader) {
        Map<Key, Long> first = new HashMap<>();
        Decoder decoder = new Decoder();
        PacketView v = new PacketView();
        for (Capture c : caps) {
            try (FrameSource src = reader.open(c)) {
                for (Frame f = src.next(); f != null; f = src.next()) {
                    if (decoder.decode(f, v) == PacketView.Kind.TCP
                            && (v.flags & (PacketView.SYN | PacketView.ACK | PacketView.RST)) == PacketView.SYN
                            && (first.size() < MAX_SYNS)) {
                        first.merge(new Key(v.srcHi, v.srcLo, v.srcPort, v.seq), f.nanos, Math::min);
                    }
                }
            } catch (CaptureException | IOException | RuntimeException e) {
                // The analysis proper reads it again and reports what is wrong with it.
            }
        }
        return first;
    }
}
