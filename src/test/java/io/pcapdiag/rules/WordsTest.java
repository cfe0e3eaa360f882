package io.pcapdiag.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WordsTest {
    private static String formatted(long nanos) {
        return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }

    @Test
    void millisPrintsWhatTheFormatterPrints() {
        long[] edges = {0, 1, 499, 500, 501, 999, 1000, 1499, 1500, 1501, 2500, 999_499, 999_500, 1_000_000, 123_456_789,
            -1, -499, -500, -501, -1500, -123_456_789, 3_600_000_000_000L};
        for (long n : edges) {
            assertEquals(formatted(n), Words.millis(n), "nanos " + n);
        }
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < 200_000; i++) {
            long n = random.nextLong(-100_000_000_000L, 100_000_000_000L);
            assertEquals(formatted(n), Words.millis(n), "nanos " + n);
        }
    }
}
