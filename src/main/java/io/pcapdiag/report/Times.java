package io.pcapdiag.report;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * Capture times as reports print them, UTC to the microsecond (what pcap records): the text as tcpdump -tttt, the
 * JSON as RFC 3339 ({@code 2026-11-24T03:07:06.477591Z}), which jq's {@code fromdate}-style parsers, Loki and
 * Elastic take without a format of their own.
 */
public final class Times {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final DateTimeFormatter UTC = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss.")
            .appendValue(ChronoField.MICRO_OF_SECOND, 6)
            .toFormatter(Locale.ROOT);
    private static final DateTimeFormatter RFC_3339 = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd'T'HH:mm:ss.")
            .appendValue(ChronoField.MICRO_OF_SECOND, 6)
            .appendLiteral('Z')
            .toFormatter(Locale.ROOT);

    private Times() {
    }

    /** {@code 2026-11-24 03:07:06.477591}, as tcpdump -tttt prints it. */
    public static String utc(long nanos) {
        return UTC.format(time(nanos));
    }

    /** {@code 2026-11-24T03:07:06.477591Z}: RFC 3339, UTC, to the microsecond; the JSON reports' times. */
    public static String rfc3339(long nanos) {
        return RFC_3339.format(time(nanos));
    }

    private static LocalDateTime time(long nanos) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(nanos, NANOS_PER_SECOND),
                (int) Math.floorMod(nanos, NANOS_PER_SECOND), ZoneOffset.UTC);
    }
}
