package io.pcapdiag.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.ReadAll;
import io.pcapdiag.testing.TcpBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Shared packets and assertions of the capture tests. */
final class CaptureTesting {
    /** A packet and when it was captured. */
    record Packet(long nanos, byte[] bytes) {
    }

    private CaptureTesting() {
    }

    /**
     * Packets of assorted sizes (a 1-byte runt, minimum Ethernet, a SYN, a full-size segment, IPv6) at
     * microsecond-exact times that exercise the fraction's edges and seconds past 2^31 (pcap's seconds
     * are unsigned 32-bit: valid until 2106).
     */
    static List<Packet> packets() {
        List<Packet> l = new ArrayList<>();
        byte[] syn = LinkBuilder.ethernet(Ipv4Builder.ipv4("10.244.0.18", "10.96.0.10")
                .tcp(TcpBuilder.tcp(40000, 80).seq(0x01020304).flags(TcpBuilder.SYN).options(TcpBuilder.linuxSynOptions()))
                .build());
        byte[] full = new byte[1514];
        new Random(7).nextBytes(full);
        byte[] v6 = LinkBuilder.ethernet(Ipv6Builder.ipv6("fd00::1", "fd00::2")
                .tcp(TcpBuilder.tcp(1, 2).flags(TcpBuilder.SYN | TcpBuilder.ACK).payload(new byte[3])).build());
        byte[] runt = {0x42};
        byte[] padded = LinkBuilder.ethernet().padTo(60).payload(Ipv4Builder.ipv4("10.0.0.1", "10.0.0.2")
                .tcp(TcpBuilder.tcp(5, 6).flags(TcpBuilder.RST)).build());
        l.add(new Packet(1_700_000_000_000_000_000L, syn));
        l.add(new Packet(1_700_000_000_000_001_000L, full));
        l.add(new Packet(1_700_000_000_999_999_000L, v6));
        l.add(new Packet(1_700_000_001_000_000_000L, runt));
        l.add(new Packet(2_147_483_648_000_000_000L + 123_000L, padded));
        l.add(new Packet(4_294_967_295_999_999_000L, syn));
        return l;
    }

    static Path write(Path dir, String name, byte[] content) throws IOException {
        Path p = dir.resolve(name);
        Files.write(p, content);
        return p;
    }

    static FrameSource open(Path p) throws CaptureException {
        return CaptureFiles.open(new Capture(0, p.toString()));
    }

    static ReadAll read(Path p) throws CaptureException {
        return ReadAll.of(open(p));
    }

    /** Frames equal the packets, in order, with their exact times and 1-based numbers. */
    static void assertFrames(List<Packet> expected, ReadAll r, int linkType) {
        assertEquals(expected.size(), r.frames.size(), () -> "frames: " + r.frames);
        for (int i = 0; i < expected.size(); i++) {
            ReadAll.Copy c = r.frames.get(i);
            assertArrayEquals(expected.get(i).bytes(), c.bytes(), "bytes of frame " + (i + 1));
            assertEquals(expected.get(i).nanos(), c.nanos(), "time of frame " + (i + 1));
            assertEquals(expected.get(i).bytes().length, c.origLen(), "original length of frame " + (i + 1));
            assertEquals(i + 1, c.number());
            assertEquals(linkType, c.linkType());
        }
    }

    /** What every message shown to a user must be: one line naming the file and a byte offset. */
    static void assertOneLine(String line, String file, long offset) {
        assertFalse(line.contains("\n") || line.contains("\r"), () -> "not one line: " + line);
        assertTrue(line.startsWith(file + ": "), () -> "does not start with the file name " + file + ": " + line);
        assertTrue(line.contains("offset " + offset + ":"), () -> "does not name offset " + offset + ": " + line);
    }
}
