package io.pcapdiag.diagnosis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.ReadStats;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.track.ExchangeKind;
import io.pcapdiag.track.Outcome;
import java.util.ArrayList;
import java.util.EnumMap;
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
    /** Attempts whose first SYN is in this capture, by outcome: written by the tracker's thread as it decides them. */
    final long[] outcomes = new long[Outcome.values().length];
    /** DNS queries and other UDP exchanges whose first datagram is in this capture, by outcome. */
    final long[] dnsOutcomes = new long[Outcome.values().length];
    final long[] udpOutcomes = new long[Outcome.values().length];
    final List<String> errors = new ArrayList<>();
    boolean opened;
    ReadStats read = new ReadStats();
    /** For a capture of another node than the first labelled one: how its clock was aligned, or null. */
    ClockOffset clock;

    /** The anomaly counted when the decoder itself failed on a packet (a bug, contained to that packet). */
    public static final String DECODER_FAILURE = "decoder_failure";

    /** An empty summary of {@code capture}, which the run loop fills as it reads. */
    public CaptureSummary(Capture capture) {
        this.capture = capture;
    }

    /** The capture could be opened. */
    public void opened(boolean opened) {
        this.opened = opened;
    }

    /** A problem reading the capture, in one line. */
    public void problem(String line) {
        errors.add(line);
    }

    /** The reader's account of the capture, once it ended. */
    public void ended(ReadStats stats) {
        this.read = stats;
    }

    /** How the capture's clock was aligned with the reference node's, or null. */
    public void aligned(ClockOffset clock) {
        this.clock = clock;
    }

    /** An attempt whose first SYN is in this capture was decided. */
    public void decided(ExchangeKind kind, Outcome outcome) {
        (kind == ExchangeKind.TCP ? outcomes : kind == ExchangeKind.DNS ? dnsOutcomes : udpOutcomes)[outcome.ordinal()]++;
    }

    /** Counts a frame read, before it is decoded. */
    public void countFrame(long nanos, int linkType) {
        packets++;
        if (nanos < firstNanos) {
            firstNanos = nanos;
        }
        if (nanos > lastNanos) {
            lastNanos = nanos;
        }
        if (linkType != lastLinkType) {
            lastLinkType = linkType;
            linkTypes.add(linkType);
        }
    }

    /** Counts what the decoder made of a frame. */
    public void count(PacketView.Kind kind, PacketView v) {
        switch (kind) {
            case TCP -> tcp++;
            case ICMP_ERROR -> icmpErrors++;
            case OTHER, UDP -> other++; // "other": neither TCP nor an ICMP error
            case UNDECODABLE -> { }
        }
        if (v.weird != null) {
            if (v.truncated) {
                truncated++;
            } else {
                malformed++;
            }
            anomaly(v.weird);
        }
    }

    /** The decoder threw on this frame: counted as malformed, under its own anomaly id. */
    public void decoderFailure(Frame f) {
        malformed++;
        anomaly(DECODER_FAILURE);
    }

    private void anomaly(String id) {
        Long n = weirds.get(id);
        weirds.put(id, n == null ? 1 : n + 1);
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

    /** TCP connection attempts by outcome. */
    public Map<Outcome, Long> outcomes() {
        return counts(outcomes);
    }

    public Map<Outcome, Long> dnsOutcomes() {
        return counts(dnsOutcomes);
    }

    public Map<Outcome, Long> udpOutcomes() {
        return counts(udpOutcomes);
    }

    public long attempts() {
        long n = 0;
        for (long c : outcomes) {
            n += c;
        }
        return n;
    }

    /**
     * How far this capture's clock ran ahead of the reference node's (negative: behind), as estimated from
     * the attempts both saw; its timestamps were moved back by it for the analysis. Null when not estimated.
     */
    public Long clockOffsetNanos() {
        return clock == null ? null : clock.nanos();
    }

    /** The node the clock offset is relative to, and how many shared attempts it rests on (0 when none). */
    public String clockReference() {
        return clock == null ? null : clock.reference();
    }

    public int clockMatched() {
        return clock == null ? 0 : clock.matched();
    }

    /** The one-line errors reported while reading this capture, in order. */
    public List<String> errors() {
        return errors;
    }

    /** Counts indexed by {@link Outcome#ordinal()}, as a map of every outcome. */
    public static Map<Outcome, Long> counts(long[] byOrdinal) {
        EnumMap<Outcome, Long> m = new EnumMap<>(Outcome.class);
        for (Outcome o : Outcome.values()) {
            m.put(o, byOrdinal[o.ordinal()]);
        }
        return m;
    }
}
