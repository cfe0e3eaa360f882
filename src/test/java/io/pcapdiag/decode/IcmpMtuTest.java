package io.pcapdiag.decode;

import static io.pcapdiag.decode.DecodeTesting.decodeCut;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.decode.MtuFixtures.IcmpError;
import io.pcapdiag.testing.Addresses;
import io.pcapdiag.testing.PcapWriter;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The errors of path MTU discovery: ICMP "fragmentation needed" (RFC 1191 4) and ICMPv6 "packet too big" (RFC 4443
 * 3.2), the MTU they state ({@link PacketView#icmpMtu}) and the length of the packet they quote ({@link
 * PacketView#quotedLength}), and how {@link IcmpTable} names and words them.
 */
class IcmpMtuTest {
    static Stream<IcmpError> errors() {
        return Stream.concat(MtuFixtures.icmp().stream(), MtuFixtures.icmpBeyondWireshark().stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("errors")
    void mtuAndQuotedLength(IcmpError e) {
        PacketView v = decodeCut(MtuFixtures.LINK_TYPE, e.packet(), e.capLen());
        String d = DecodeTesting.describe(v);
        assertEquals(PacketView.Kind.ICMP_ERROR, v.kind, d);
        assertEquals(e.mtu(), v.icmpMtu, d);
        assertEquals(e.quotedLength(), v.quotedLength, d);
        assertEquals(e.weird(), v.weird, d);
        assertEquals(e.weird() != null, v.truncated, d);
        assertEquals(e.quotedLength() >= 0, v.quotedVersion != 0, d);
    }

    /** A full-size segment's quote keeps what the tracker pairs it by, however short the quote. */
    @Test
    void packetTooBigQuotesLikeDestinationUnreachable() {
        PacketView v = DecodeTesting.decode(MtuFixtures.LINK_TYPE, MtuFixtures.icmp().stream()
                .filter(e -> e.name().startsWith("packet too big, mtu 1280")).findFirst().orElseThrow().packet());
        assertEquals(2, v.icmpType);
        assertEquals(0, v.icmpCode);
        assertEquals(6, v.quotedVersion);
        assertEquals(6, v.quotedProtocol);
        assertTrue(v.quotedHasPorts);
        assertEquals(80, v.quotedSrcPort);
        assertEquals(MtuFixtures.CLIENT_PORT, v.quotedDstPort);
        assertTrue(v.quotedHasSeq);
        assertEquals(MtuFixtures.SEQ, v.quotedSeq);
    }

    @Test
    void kindsAndNames() {
        assertEquals(IcmpKind.FRAGMENTATION_NEEDED, IcmpTable.kind(4, 3, 4));
        assertEquals(IcmpKind.PACKET_TOO_BIG, IcmpTable.kind(6, 2, 0));
        assertEquals(IcmpKind.NO_ROUTE, IcmpTable.kind(6, 1, 0));
        assertEquals(IcmpKind.TIME_EXCEEDED, IcmpTable.kind(6, 3, 0));
        assertEquals(IcmpKind.PARAMETER_PROBLEM, IcmpTable.kind(6, 4, 0));
        assertEquals("fragmentation needed", IcmpTable.name(4, 3, 4));
        assertEquals("packet too big", IcmpTable.name(6, 2, 0));
    }

    @Test
    void tcpdumpWording() {
        long[] dst = Addresses.hiLo("10.244.0.18");
        assertEquals("ICMP 10.244.0.18 unreachable - need to frag (mtu 1450)", IcmpTable.tcpdumpText(4, 3, 4, dst[0], dst[1],
                6, MtuFixtures.CLIENT_PORT, 1450));
        assertEquals("ICMP 10.244.0.18 unreachable - need to frag", IcmpTable.tcpdumpText(4, 3, 4, dst[0], dst[1], 6,
                MtuFixtures.CLIENT_PORT, 0));
        assertEquals("ICMP 10.244.0.18 unreachable - need to frag", IcmpTable.tcpdumpText(4, 3, 4, dst[0], dst[1], 6,
                MtuFixtures.CLIENT_PORT, -1));
        long[] dst6 = Addresses.hiLo("fd00::18");
        assertEquals("ICMP6, packet too big, mtu 1280", IcmpTable.tcpdumpText(6, 2, 0, dst6[0], dst6[1], 6,
                MtuFixtures.CLIENT_PORT, 1280));
        assertEquals("ICMP6, packet too big", IcmpTable.tcpdumpText(6, 2, 0, dst6[0], dst6[1], 6, MtuFixtures.CLIENT_PORT,
                -1));
    }

    /**
     * tcpdump itself, on the fixtures' errors of path MTU discovery written as a capture, words each as {@link
     * IcmpTable#tcpdumpText} does from the decoded view: those whose quote holds the quoted IP header (tcpdump prints
     * {@code [|icmp]} for the others).
     */
    @Test
    void tcpdumpWordsThemSo(@TempDir Path dir) throws Exception {
        List<IcmpError> errors = MtuFixtures.icmp().stream().filter(e -> e.mtu() >= 0 && e.quotedLength() >= 0
                && e.capLen() == e.packet().length).toList();
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).linkType(MtuFixtures.LINK_TYPE);
        for (int i = 0; i < errors.size(); i++) {
            w.packet(1_700_000_000_000_000_000L + i * 1_000_000_000L, errors.get(i).packet());
        }
        Path file = dir.resolve("mtu.pcap");
        Files.write(file, w.toByteArray());
        List<String> lines = tcpdump(file);
        assertEquals(errors.size(), lines.size(), lines::toString);
        Pattern text = Pattern.compile("^\\S+ IP6? \\S+ > \\S+: (.*), length \\d+$");
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < errors.size(); i++) {
            Matcher m = text.matcher(lines.get(i));
            assertTrue(m.matches(), lines.get(i));
            PacketView v = DecodeTesting.decode(MtuFixtures.LINK_TYPE, errors.get(i).packet());
            String ours = IcmpTable.tcpdumpText(v.ipVersion, v.icmpType, v.icmpCode, v.quotedDstHi, v.quotedDstLo,
                    v.quotedProtocol, v.quotedHasPorts ? v.quotedDstPort : -1, v.icmpMtu);
            if (!ours.equals(m.group(1))) {
                wrong.add(errors.get(i).name() + ": tcpdump \"" + m.group(1) + "\", pcapdiag \"" + ours + "\"");
            }
        }
        assertEquals(List.of(), wrong);
    }

    private static List<String> tcpdump(Path file) throws IOException, InterruptedException {
        Process p = DecodeTesting.tcpdumpRead(file);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "tcpdump -nn -r " + file);
        assertFalse(out.isBlank());
        return Arrays.stream(out.split("\n")).filter(l -> !l.isBlank()).toList();
    }
}
