package io.pcapdiag.analysis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.ReadStats;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** What one capture contributed: packets by kind, anomalies, read problems, attempts by outcome. */
public final class CaptureSummary {
    private final Capture capture;
    long packets;
    long tcp;
    long icmpErrors;
    long other;
    long truncated;
    long malformed;
    long firstNanos = Long.MAX_VALUE;
    long lastNanos = Long.MIN_VALUE;
    int lastLinkType = -1;
    final TreeSet<Integer> linkTypes = new TreeSet<>();
    final TreeMap<String, Long> weirds = new TreeMap<>();
    final long[] outcomes = new long[Outcome.values().length];
    final List<String> errors = new ArrayList<>();
    boolean opened;
    ReadStats read = new ReadStats();

    CaptureSummary(Capture capture) {
        this.capture = capture;
    }

    public Capture capture() {
        return capture;
    }

    /** Whether the capture could be opened at all (its header was readable). */
    public boolean opened() {
        return opened;
    }

    public long packets() {
        return packets;
    }

    public long tcp() {
        return tcp;
    }

    public long icmpErrors() {
        return icmpErrors;
    }

    /** Packets that are neither TCP nor ICMP errors (ARP, UDP, ...), not an anomaly. */
    public long other() {
        return other;
    }

    /** Packets cut off by the capture before a header the analysis needed. */
    public long truncated() {
        return truncated;
    }

    /** Packets with a nonsensical header value, or on a link type pcapdiag cannot decode. */
    public long malformed() {
        return malformed;
    }

    /** Records in the file that could not be read as packets at all. */
    public long skippedRecords() {
        return read.skippedRecords;
    }

    public long skippedBytes() {
        return read.skippedBytes;
    }

    public long bytes() {
        return read.bytes;
    }

    public long firstNanos() {
        return firstNanos;
    }

    public long lastNanos() {
        return lastNanos;
    }

    public List<Integer> linkTypes() {
        return List.copyOf(linkTypes);
    }

    public Map<String, Long> weirds() {
        return weirds;
    }

    public Map<Outcome, Long> outcomes() {
        return Analysis.counts(outcomes);
    }

    public long attempts() {
        long n = 0;
        for (long c : outcomes) {
            n += c;
        }
        return n;
    }

    /** The one-line errors reported while reading this capture, in order. */
    public List<String> errors() {
        return errors;
    }
}
