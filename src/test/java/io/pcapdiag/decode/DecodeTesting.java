package io.pcapdiag.decode;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.testing.Frames;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/** Decoding helpers shared by the decode tests. */
final class DecodeTesting {
    /**
     * {@code tcpdump -nn -r file}, started, its errors discarded. Without tcpdump the test fails in CI (scripts/test
     * installs it) and is skipped elsewhere.
     */
    static Process tcpdumpRead(Path file) throws IOException {
        try {
            return new ProcessBuilder("tcpdump", "-nn", "-r", file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                org.junit.jupiter.api.Assertions.fail("tcpdump must be installed in CI (scripts/test installs it)");
            }
            org.junit.jupiter.api.Assumptions.abort("no tcpdump");
            return null;
        }
    }

    private DecodeTesting() {
    }

    static PacketView decode(int linkType, byte[] bytes) {
        return decode(Frames.frame(linkType, bytes));
    }

    /** Only the first {@code capLen} bytes captured; the array goes on with junk past them. */
    static PacketView decodeCut(int linkType, byte[] bytes, int capLen) {
        return decode(Frames.cut(linkType, bytes, capLen));
    }

    static PacketView decode(Frame f) {
        PacketView v = new PacketView();
        new Decoder().decode(f, v);
        return v;
    }

    /**
     * Every field that means something, as one comparable string: each field only under the guard that
     * makes it valid (kind, ipVersion, hasSrcMac, quotedVersion, quotedHasPorts, quotedHasSeq); tcpMss, icmpMtu and
     * quotedLength are -1 outside their guard, which {@code DecoderFuzzTest} checks.
     */
    static String describe(PacketView v) {
        StringBuilder sb = new StringBuilder();
        sb.append(v.kind).append(" trunc=").append(v.truncated).append(" weird=").append(v.weird);
        if (v.hasSrcMac) {
            sb.append(" smac=").append(Long.toHexString(v.srcMac));
        }
        if (v.hasDstMac) {
            sb.append(" dmac=").append(Long.toHexString(v.dstMac));
        }
        if (v.ipVersion != 0) {
            sb.append(String.format(Locale.ROOT, " ip%d %x:%x > %x:%x ttl=%d len=%d", v.ipVersion, v.srcHi, v.srcLo,
                    v.dstHi, v.dstLo, v.ttl, v.ipPayloadLength));
        }
        if (v.kind == PacketView.Kind.TCP) {
            sb.append(String.format(Locale.ROOT, " tcp %d>%d seq=%x ack=%x flags=%x win=%d plen=%d mss=%d", v.srcPort,
                    v.dstPort, v.seq, v.ack, v.flags, v.window, v.tcpPayloadLength, v.tcpMss));
        }
        if (v.kind == PacketView.Kind.UDP) {
            sb.append(String.format(Locale.ROOT, " udp %d>%d", v.srcPort, v.dstPort));
        }
        if (v.dns) {
            sb.append(String.format(Locale.ROOT, " dns malformed=%b", v.dnsMalformed));
            sb.append(String.format(Locale.ROOT, " id=%d flags=%x rcode=%d q=%d an=%d %s/%d/%d edns=%d addrs=", v.dnsId,
                    v.dnsFlags, v.dnsRcode, v.dnsQuestions, v.dnsAnswers, v.dnsQname, v.dnsQtype, v.dnsQclass, v.dnsEdnsSize));
            for (int i = 0; i < v.dnsAddressCount; i++) {
                sb.append(Ip.format(v.dnsAddressHi[i], v.dnsAddressLo[i])).append(',');
            }
        }
        if (v.kind == PacketView.Kind.ICMP_ERROR) {
            sb.append(String.format(Locale.ROOT, " icmp %d/%d mtu=%d", v.icmpType, v.icmpCode, v.icmpMtu));
            // Quoted addresses mean something only when a quoted IP header was found (quotedVersion != 0).
            if (v.quotedVersion != 0) {
                sb.append(String.format(Locale.ROOT, " q%d %x:%x > %x:%x p=%d len=%d", v.quotedVersion, v.quotedSrcHi,
                        v.quotedSrcLo, v.quotedDstHi, v.quotedDstLo, v.quotedProtocol, v.quotedLength));
            }
            if (v.quotedHasPorts) {
                sb.append(" ports ").append(v.quotedSrcPort).append('>').append(v.quotedDstPort);
            }
            if (v.quotedHasSeq) {
                sb.append(" seq ").append(Integer.toHexString(v.quotedSeq));
            }
        }
        return sb.toString();
    }
}
