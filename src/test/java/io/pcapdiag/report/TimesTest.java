package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Capture times in UTC to the microsecond, as tcpdump -tttt and RFC 3339 print them, whatever the machine's zone and locale. */
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
    void jsonTimesAreRfc3339InUtcToTheMicrosecond() {
        assertEquals("1970-01-01T00:00:00.000000Z", Times.rfc3339(0));
        assertEquals("2026-11-24T03:07:06.477591Z", Times.rfc3339(1_795_489_626L * S + 477_591_999));
        assertEquals("1969-12-31T23:59:59.999999Z", Times.rfc3339(-1));
    }

    @Test
    void beforeTheEpochCountsBack() {
        assertEquals("1969-12-31 23:59:59.999999", Times.utc(-1));
    }
}
