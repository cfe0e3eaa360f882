package io.pcapdiag.report;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;

/** Capture times as reports print them: UTC, microseconds, as tcpdump -tttt. */
public final class Times {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final DateTimeFormatter UTC = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss.")
            .appendValue(ChronoField.MICRO_OF_SECOND, 6)
            .toFormatter(Locale.ROOT);

    private Times() {
    }

    public static String utc(long nanos) {
        return UTC.format(LocalDateTime.ofEpochSecond(Math.floorDiv(nanos, NANOS_PER_SECOND),
                (int) Math.floorMod(nanos, NANOS_PER_SECOND), ZoneOffset.UTC));
    }
}
