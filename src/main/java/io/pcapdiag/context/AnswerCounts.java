package io.pcapdiag.context;

/**
 * What a capture's decided attempts got back, all of them together: how many were decided (answered, bypassed,
 * refused, rejected or unanswered; not those still pending or evicted), how many of those got any answer (a SYN-ACK, a
 * RST or an ICMP error), how many answers of those kinds paired with no attempt (the SYN not captured, or an ICMP error
 * whose quote was cut), and how many targets (address:port) the attempts went to; {@code targetsCapped}: the source
 * keeps a bounded number of targets and had reached it, so that there were at least {@code targets}.
 */
public record AnswerCounts(long decided, long answered, long unpaired, long targets, boolean targetsCapped) {
    public static final AnswerCounts NONE = new AnswerCounts(0, 0, 0, 0, false);

    AnswerCounts plus(AnswerCounts o) {
        return new AnswerCounts(decided + o.decided, answered + o.answered, unpaired + o.unpaired, targets + o.targets,
                targetsCapped || o.targetsCapped);
    }
}
