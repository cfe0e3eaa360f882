package io.pcapdiag.decode;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Addresses;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Address text forms: RFC 5952 for IPv6, dotted quads for IPv4 (held IPv4-mapped). */
class IpTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "2001:0db8:0000:0000:0000:0000:0000:0001, 2001:db8::1",
        "2001:db8:0:1:1:1:1:1, 2001:db8:0:1:1:1:1:1",      // 4.2.2: one zero group is not compressed
        "2001:0:0:1:0:0:0:1, 2001:0:0:1::1",              // 4.2.3: the longest run
        "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",        // 4.2.3: the first of equal runs
        "0:0:0:0:0:0:0:0, ::",
        "0:0:0:0:0:0:0:1, ::1",
        "1:0:0:0:0:0:0:0, 1::",
        "FD00:ABCD::EF, fd00:abcd::ef",                   // 4.3: lower case
        "1:2:3:4:5:6:7:8, 1:2:3:4:5:6:7:8",
        "::ffff:10.1.2.3, 10.1.2.3",                      // IPv4 is held mapped and printed dotted
        "192.0.2.255, 192.0.2.255",
        "0.0.0.0, 0.0.0.0"
    })
    void formatsAsRfc5952(String in, String out) {
        long[] a = Addresses.hiLo(in);
        assertEquals(out, Ip.format(a[0], a[1]));
        assertArrayEquals(a, Ip.parse(in), "parse agrees with the builder's conversion");
        assertArrayEquals(a, Ip.parse(out), "and reads its own output back");
    }

    @Test
    void macPrintsWhatTheFormatterPrints() {
        Random random = new Random(17);
        long[] edges = {0, 0xffff_ffff_ffffL, 0x0242_0af4_0005L, 0x0100_5e00_0001L, 0x0000_0000_00ffL, 0xff00_0000_0000L};
        for (int i = 0; i < 20_000 + edges.length; i++) {
            long mac = i < edges.length ? edges[i] : random.nextLong() & 0xffff_ffff_ffffL;
            StringBuilder want = new StringBuilder();
            for (int b = 5; b >= 0; b--) {
                want.append(String.format(java.util.Locale.ROOT, "%02x", (mac >>> (8 * b)) & 0xff)).append(b > 0 ? ":" : "");
            }
            assertEquals(want.toString(), Ip.mac(mac), Long.toHexString(mac));
        }
    }

    @Test
    void randomAddressesRoundTrip() {
        Random r = new Random(5952);
        for (int i = 0; i < 5000; i++) {
            long hi = r.nextInt(4) == 0 ? 0 : r.nextLong();
            long lo = r.nextLong();
            // Zero some groups to make runs.
            for (int g = 0; g < 4; g++) {
                if (r.nextBoolean()) {
                    hi &= ~(0xffffL << (16 * g));
                }
                if (r.nextBoolean()) {
                    lo &= ~(0xffffL << (16 * g));
                }
            }
            String text = Ip.format(hi, lo);
            assertArrayEquals(new long[] {hi, lo}, Ip.parse(text), text);
            assertFalse(text.contains(":::"), text);
        }
    }

    @Test
    void endpointsAndMacs() {
        long[] v4 = Addresses.hiLo("10.96.0.10");
        long[] v6 = Addresses.hiLo("fd00::10");
        assertEquals("10.96.0.10:53", Ip.endpoint(v4[0], v4[1], 53));
        assertEquals("[fd00::10]:53", Ip.endpoint(v6[0], v6[1], 53));
        assertEquals("10.96.0.10.53", Ip.dotted(v4[0], v4[1], 53));
        assertEquals("fd00::10.53", Ip.dotted(v6[0], v6[1], 53));
        assertEquals("02:42:ac:11:00:02", Ip.mac(0x0242ac110002L));
        assertEquals("ff:ff:ff:ff:ff:ff", Ip.mac(0xffffffffffffL));
        assertTrue(Ip.isV4(v4[0], v4[1]));
        assertFalse(Ip.isV4(v6[0], v6[1]));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "10.0.0.256", "1.2.3", "4294967295", "1.2.3.4.5", "1..2.3", "a.b.c.d", "example.com",
        "10.0.0.1/24", "1:2", "fd00::1::2", "-1.0.0.0", "1.2.3.0010"})
    void rejectsWhatIsNotAnAddressLiteral(String text) {
        assertThrows(IllegalArgumentException.class, () -> Ip.parse(text));
    }

    @Test
    void surroundingSpaceIsIgnored() {
        assertArrayEquals(Addresses.hiLo("10.0.0.1"), Ip.parse(" 10.0.0.1 "));
        assertArrayEquals(Addresses.hiLo("fd00::1"), Ip.parse("\tfd00::1\n"));
    }
}
