package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TimesTest {
    private static final DateTimeFormatter FORMATTER =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    private static String formatted(long nanos) {
        return FORMATTER.format(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L)));
    }

    private static void same(long nanos) {
        assertEquals(formatted(nanos), Times.utc(nanos), "nanos " + nanos);
    }

    @Test
    void printsWhatTheFormatterPrintsAtTheEdges() {
        long s = 1_000_000_000L;
        long[] edges = {0, 1, 999, 1000, 999_999_999, -1, -1000, -s, Long.MIN_VALUE, Long.MAX_VALUE,
            // the last leap day of a century that is not a leap year, of one that is, and the next day
            951_782_400L * s, 951_868_800L * s, 4_107_456_000L * s, 4_107_542_400L * s,
            // pcap's last second (u32), the years 2038, 9999 and 10000
            4_294_967_295L * s + 999_999_999, 2_147_483_647L * s, 253_402_300_799L * s + 999_999_999L};
        for (long n : edges) {
            same(n);
        }
        for (long day = 0; day < 200 * 366; day++) { // every day from 1970 to 2170, at its first and last microsecond
            same(day * 86_400 * s);
            same(day * 86_400 * s + 86_399_999_999_000L);
        }
    }

    @Test
    void printsWhatTheFormatterPrintsAtRandom() {
        SplittableRandom random = new SplittableRandom(29);
        for (int i = 0; i < 50_000; i++) {
            same(random.nextLong(0, 4_294_967_296_000_000_000L)); // pcap's range of times
            same(random.nextLong(-3_000_000_000_000_000_000L, Long.MAX_VALUE)); // pcapng's 64 bits, either side of 1970
        }
    }
}
