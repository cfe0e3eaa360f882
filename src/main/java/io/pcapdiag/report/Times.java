package io.pcapdiag.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Capture times as reports print them: UTC, microseconds, as tcpdump -tttt. Written digit by digit for
 * the years 1970 to 9999 (a JSON report prints four per finding listed: through {@link DateTimeFormatter}
 * they were the largest part of what its report allocated, 6 of 35 MB, PERFORMANCE.md); any other time
 * through the formatter. {@code TimesTest} holds the two to the same text.
 */
public final class Times {
    /**
     * The formatter, made only when a time outside 1970-9999 is printed: DateTimeFormatter's own initialisation links
     * lambdas, and analyze links none (NoLambdaLinkedTest).
     */
    private static final class Formatter {
        static final DateTimeFormatter TIME =
                DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

        private Formatter() {
        }
    }

    /** 10000-01-01T00:00:00Z: from here on the year has five digits. */
    private static final long YEAR_10000 = 253_402_300_800L;

    private Times() {
    }

    public static String utc(long nanos) {
        long seconds = Math.floorDiv(nanos, 1_000_000_000L);
        int nano = (int) Math.floorMod(nanos, 1_000_000_000L);
        if (seconds < 0 || seconds >= YEAR_10000) {
            return Formatter.TIME.format(Instant.ofEpochSecond(seconds, nano));
        }
        // The proleptic Gregorian date of a day count (H. Hinnant, "chrono-compatible low-level date
        // algorithms", civil_from_days), in eras of 400 years counted from 0000-03-01.
        long days = seconds / 86_400;
        int secondOfDay = (int) (seconds % 86_400);
        long z = days + 719_468;
        long era = z / 146_097;
        int dayOfEra = (int) (z - era * 146_097);
        int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int mp = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * mp + 2) / 5 + 1;
        int month = mp < 10 ? mp + 3 : mp - 9;
        int year = (int) (era * 400 + yearOfEra) + (month <= 2 ? 1 : 0);
        char[] c = new char[26];
        digits(c, 0, year, 4);
        c[4] = '-';
        digits(c, 5, month, 2);
        c[7] = '-';
        digits(c, 8, day, 2);
        c[10] = ' ';
        digits(c, 11, secondOfDay / 3600, 2);
        c[13] = ':';
        digits(c, 14, secondOfDay / 60 % 60, 2);
        c[16] = ':';
        digits(c, 17, secondOfDay % 60, 2);
        c[19] = '.';
        digits(c, 20, nano / 1000, 6);
        return new String(c);
    }

    /** {@code value} in {@code width} decimal digits, zero-padded, at {@code c[at]}. */
    private static void digits(char[] c, int at, int value, int width) {
        for (int i = at + width - 1; i >= at; i--) {
            c[i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }
}
