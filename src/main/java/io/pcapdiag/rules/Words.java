package io.pcapdiag.rules;

import java.util.List;
import java.util.Locale;

/** Small wording helpers for explanations. */
final class Words {
    private Words() {
    }

    /** {@code 1 attempt}, {@code 2 attempts}. */
    static String count(long n, String singular, String plural) {
        return n + " " + (n == 1 ? singular : plural);
    }

    /** {@code a}, {@code a or b}, {@code a, b, or c}: alternatives as a sentence lists them. */
    static String alternatives(List<String> items) {
        if (items.size() <= 2) {
            return String.join(" or ", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + ", or " + items.get(items.size() - 1);
    }

    static String times(long n) {
        return n == 1 ? "once" : n + " times";
    }

    /** "the client retransmitted its SYN N times", when it did (for stories that do not tell it themselves). */
    static void retransmissions(Finding f, List<Statement> observations) {
        if (f.retransmissions() > 0) {
            observations.add(Statement.seen("the client retransmitted its SYN " + times(f.retransmissions())
                    + (f.attempts() > 1 ? " over its " + f.attempts() + " attempts" : "")));
        }
    }

    /**
     * The packets a sentence about many cites: the first and the last (a segment sent 16 times is told by its count; the
     * report's lines stay bounded).
     */
    static List<io.pcapdiag.track.Sighting> some(List<io.pcapdiag.track.Sighting> packets) {
        if (packets.size() <= 2) {
            return packets;
        }
        return List.of(packets.get(0), packets.get(packets.size() - 1));
    }

    /** {@code 0.123 ms}. */
    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    /** {@code 1.2 s}. */
    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
