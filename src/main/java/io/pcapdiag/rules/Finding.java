package io.pcapdiag.rules;

import io.pcapdiag.context.Fact;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.track.Attempt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The attempts of one (pattern, client, target, responder), with a few of them kept as evidence.
 */
public final class Finding {
    /** Attempts kept as evidence per finding; the rest are counted. */
    public static final int EXAMPLES = 3;
    private static final int PORTS_TRACKED = 64;

    private Pattern pattern;
    private final Endpoint client;
    private final Endpoint target;
    private final Endpoint responder;
    private long attempts;
    private long retransmissions;
    private long clientResets;
    /** The context's facts that made a group rule name this finding's pattern. */
    private List<Fact> facts = List.of();
    /** Delayed connects: the shortest and longest time from the first SYN to the answered one. */
    private long minDelayNanos = Long.MAX_VALUE;
    private long maxDelayNanos = Long.MIN_VALUE;
    private long firstNanos = Long.MAX_VALUE;
    private long lastNanos = Long.MIN_VALUE;
    private final List<Attempt> examples = new ArrayList<>(1);
    /** Distinct client ports seen, up to {@link #PORTS_TRACKED}: probes need two, the rest only counts. */
    private int[] clientPorts = new int[2];
    private int portCount;

    Finding(Pattern pattern, Endpoint client, Endpoint target, Endpoint responder) {
        this.pattern = pattern;
        this.client = client;
        this.target = target;
        this.responder = responder;
    }

    /** Counts {@code a} in; true when it is kept as one of the examples. */
    boolean add(Attempt a) {
        attempts++;
        retransmissions += a.retransmissions();
        if (a.clientReset() != null) {
            clientResets++;
        }
        if (a.delayed()) {
            minDelayNanos = Math.min(minDelayNanos, a.delayNanos());
            maxDelayNanos = Math.max(maxDelayNanos, a.delayNanos());
        }
        firstNanos = Math.min(firstNanos, a.synNanos());
        lastNanos = Math.max(lastNanos, a.synNanos());
        addPort(a.clientPort());
        return addExample(a);
    }

    /**
     * Keeps the {@link #EXAMPLES} attempts whose first SYN came first in capture time. The order in which
     * the tracker decides attempts depends on how its clock stepped, which differs between reading on one
     * thread and on two; the examples (and so the evidence) must not.
     */
    private boolean addExample(Attempt a) {
        int at = examples.size();
        while (at > 0 && a.before(examples.get(at - 1))) {
            at--;
        }
        if (at >= EXAMPLES) {
            return false;
        }
        examples.add(at, a);
        if (examples.size() > EXAMPLES) {
            examples.remove(EXAMPLES);
        }
        return true;
    }

    private void addPort(int port) {
        if (portCount == PORTS_TRACKED) {
            return;
        }
        for (int i = 0; i < portCount; i++) {
            if (clientPorts[i] == port) {
                return;
            }
        }
        if (portCount == clientPorts.length) {
            clientPorts = java.util.Arrays.copyOf(clientPorts, Math.min(PORTS_TRACKED, portCount * 2));
        }
        clientPorts[portCount++] = port;
    }

    /** A group rule re-read the group: its pattern, and the facts that made it so. */
    void reclassify(Pattern p, List<Fact> why) {
        this.pattern = p;
        this.facts = List.copyOf(why);
    }

    public Pattern pattern() {
        return pattern;
    }

    public Severity severity() {
        return pattern.severity();
    }

    public Endpoint client() {
        return client;
    }

    public Endpoint target() {
        return target;
    }

    /** Who answered (null for unanswered findings). */
    public Endpoint responder() {
        return responder;
    }

    /** What the finding counts: connections after the handshake for those patterns, else its exchanges' kind. */
    public io.pcapdiag.track.ExchangeKind kind() {
        return pattern.connection() ? io.pcapdiag.track.ExchangeKind.CONNECTION : examples.get(0).kind();
    }

    public long attempts() {
        return attempts;
    }

    public long retransmissions() {
        return retransmissions;
    }

    /** Attempts in which the client reset the SYN-ACK it got. */
    public long clientResets() {
        return clientResets;
    }

    /** The facts that decided the pattern (group rules), empty when the packets alone did. */
    public List<Fact> facts() {
        return facts;
    }

    /** Distinct client ports, counted up to 64. */
    public int distinctClientPorts() {
        return portCount;
    }

    /** Delayed connects: the shortest delay from a first SYN to the SYN that was answered, else -1. */
    public long minDelayNanos() {
        return minDelayNanos == Long.MAX_VALUE ? -1 : minDelayNanos;
    }

    /** Delayed connects: the longest such delay, else -1. */
    public long maxDelayNanos() {
        return maxDelayNanos == Long.MIN_VALUE ? -1 : maxDelayNanos;
    }

    public long firstNanos() {
        return firstNanos;
    }

    public long lastNanos() {
        return lastNanos;
    }

    /** The first attempts of the group, in capture order. */
    public List<Attempt> examples() {
        return Collections.unmodifiableList(examples);
    }
}
