package io.pcapdiag.rules;

import java.util.List;

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
     * {@code 0.123 ms}: what {@code String.format(Locale.ROOT, "%.3f ms", nanos / 1e6)} prints (half up, the sign kept),
     * in integer arithmetic: a Formatter per call costs a report of 1,000 findings some 30 ms.
     */
    static String millis(long nanos) {
        return decimal(nanos, 1_000, 1_000, " ms");
    }

    /** {@code 1.2 s}: what {@code String.format(Locale.ROOT, "%.1f s", nanos / 1e9)} prints, as {@link #millis} does. */
    static String seconds(long nanos) {
        return decimal(nanos, 100_000_000, 10, " s");
    }

    /**
     * {@code nanos} in steps of {@code step} nanoseconds (half up, the sign kept), {@code places} of them to the unit
     * (10, 100 or 1,000: one, two or three decimals), then {@code unit}.
     */
    private static String decimal(long nanos, long step, long places, String unit) {
        long steps = (Math.abs(nanos) + step / 2) / step;
        String frac = Long.toString(places + steps % places).substring(1);
        return (nanos < 0 ? "-" : "") + steps / places + "." + frac + unit;
    }
}
