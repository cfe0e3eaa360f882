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

    @Test
    void secondsPrintsWhatTheFormatterPrints() {
        long[] edges = {0, 1, 49_999_999, 50_000_000, 50_000_001, 149_999_999, 150_000_000, 250_000_000, 949_999_999,
            950_000_000, 999_999_999, 1_000_000_000, 1_050_000_000, 1_234_567_890, -1, -50_000_000, -150_000_000,
            -1_234_567_890, 86_400_000_000_000L};
        for (long n : edges) {
            assertEquals(String.format(Locale.ROOT, "%.1f s", n / 1e9), Words.seconds(n), "nanos " + n);
        }
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 200_000; i++) {
            long n = random.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
            assertEquals(String.format(Locale.ROOT, "%.1f s", n / 1e9), Words.seconds(n), "nanos " + n);
        }
    }
}
