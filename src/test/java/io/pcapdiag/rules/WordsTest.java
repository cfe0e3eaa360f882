package io.pcapdiag.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class WordsTest {
    @Test
    void timesAsTheExplanationsPrintThem() {
        assertEquals("0.312 ms", Words.millis(312_000));
        assertEquals("0.001 ms", Words.millis(500), "half up");
        assertEquals("5012.346 ms", Words.millis(5_012_345_678L));
        assertEquals("5.0 s", Words.seconds(5_012_000_000L));
        assertEquals("1.1 s", Words.seconds(1_050_000_000L), "half up");
    }

    @Test
    void countsAndAlternatives() {
        assertEquals("1 attempt", Words.count(1, "attempt", "attempts"));
        assertEquals("2 attempts", Words.count(2, "attempt", "attempts"));
        assertEquals("once", Words.times(1));
        assertEquals("3 times", Words.times(3));
        assertEquals("a or b", Words.alternatives(List.of("a", "b")));
        assertEquals("a, b, or c", Words.alternatives(List.of("a", "b", "c")));
    }
}
