package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Capture times in UTC to the microsecond, as tcpdump -tttt prints them, whatever the machine's zone and locale. */
class TimesTest {
    private static final long S = 1_000_000_000L;

    @Test
    void utcToTheMicrosecond() {
        assertEquals("1970-01-01 00:00:00.000000", Times.utc(0));
        assertEquals("2024-11-21 12:00:00.000123", Times.utc(1_732_190_400L * S + 123_999));
        assertEquals("2000-02-29 00:00:00.000000", Times.utc(951_782_400L * S));
        assertEquals("2106-02-07 06:28:15.999999", Times.utc(4_294_967_295L * S + 999_999_999));
    }

    @Test
    void beforeTheEpochCountsBack() {
        assertEquals("1969-12-31 23:59:59.999999", Times.utc(-1));
    }
}
