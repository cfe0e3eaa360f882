package io.pcapdiag.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.testing.DnsBuilder;
import io.pcapdiag.testing.Frames;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;

/**
 * Fuzzes the DNS decoder: whatever the bytes of a DNS message in a UDP datagram to port 53, decoding never throws,
 * the datagram stays a UDP packet, a fault is a named DNS anomaly (truncation when the capture cut the message short,
 * malformation otherwise). The message is given twice: whole, and cut short by the capture at a length the input's
 * last byte chooses. scripts/fuzz runs it under Jazzer; the test suite replays the committed corpus
 * (DnsFuzzTestInputs) as regression tests.
 */
class DnsFuzzTest {
    @FuzzTest(maxDuration = "30m", maxExecutions = 4_000_000)
    void messages(byte[] message) {
        byte[] frame = LinkBuilder.ethernet(Ipv4Builder.ipv4("10.244.0.5", "10.96.0.10")
                .payload(Ipv4Builder.PROTO_UDP, DnsBuilder.udp(40001, Dns.PORT, message)).build());
        check(Frames.frame(LinkBuilder.LINKTYPE_ETHERNET, frame), false);
        int headers = frame.length - message.length;
        int cut = message.length == 0 ? 0 : (message[message.length - 1] & 0xff) % message.length;
        check(Frames.cut(LinkBuilder.LINKTYPE_ETHERNET, frame, headers + cut), true);
    }

    private static void check(Frame f, boolean cut) {
        Decoder d = new Decoder();
        PacketView v = new PacketView();
        d.decode(f, v);
        String what = DecodeTesting.describe(v);
        assertEquals(PacketView.Kind.UDP, v.kind, what);
        assertTrue(v.dns, what);
        assertEquals(v.dnsMalformed, v.weird != null, what);
        if (v.weird != null) {
            assertTrue(v.weird.startsWith("DNS_") || v.weird.equals(Weird.TRUNCATED_DNS), what);
            assertEquals(Weird.isTruncation(v.weird), v.truncated, what);
            if (!cut) {
                assertFalse(v.truncated, "a whole message is never cut by the capture: " + what);
            }
        }
        assertTrue(v.dnsAddressCount >= 0 && v.dnsAddressCount <= PacketView.DNS_ADDRESSES, what);
    }
}
