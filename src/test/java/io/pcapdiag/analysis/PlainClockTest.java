package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.TcpBuilder;
import io.pcapdiag.track.Outcome;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plain segments that the sources pass over still move the capture clock: a SYN whose SYN-ACK comes after plain
 * segments of other connections that span 4 s is unanswered (3 s of capture went by), on one thread and on two, from
 * one file and from two merged, as when every frame goes through {@link Analysis#feed}. In the one file the SYN-ACK
 * is stamped 2.5 s, before the last plain segments (a clock stepped back): only they show the 3 s.
 */
class PlainClockTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_700_000_000L * S;

    @TempDir
    Path dir;

    private static byte[] frame(String src, int sport, String dst, int dport, TcpBuilder tcp) {
        return LinkBuilder.ethernet(Ipv4Builder.ipv4(src, dst).tcp(tcp).build());
    }

    /**
     * The SYN and its late SYN-ACK, stamped {@code synAckAt} (none when negative), in {@code handshake}; the plain
     * segments between them, every half second to 4 s, in {@code plain}.
     */
    private static void write(PcapWriter handshake, PcapWriter plain, long synAckAt) {
        handshake.packet(T0, frame("10.244.0.5", 40000, "10.96.0.10", 80,
                TcpBuilder.tcp(40000, 80).seq(1000).flags(TcpBuilder.SYN)));
        for (int i = 1; i <= 8; i++) {
            plain.packet(T0 + i * S / 2, frame("10.244.0.7", 5000, "10.244.0.8", 80,
                    TcpBuilder.tcp(5000, 80).seq(7 + i).ack(9).flags(TcpBuilder.ACK).payload(new byte[10])));
        }
        if (synAckAt < 0) {
            return;
        }
        handshake.packet(T0 + synAckAt, frame("10.96.0.10", 80, "10.244.0.5", 40000,
                TcpBuilder.tcp(80, 40000).seq(5000).ack(1001).flags(TcpBuilder.SYN | TcpBuilder.ACK)));
    }

    private static Result analyze(List<Path> files, boolean pipelined) {
        return ReadFiles.read(files, pipelined).finish();
    }

    private static void assertUnanswered(Result r, String how) {
        assertUnanswered(r, how, 10);
    }

    private static void assertUnanswered(Result r, String how, long frames) {
        assertEquals(1L, r.outcomes().get(Outcome.UNANSWERED), how + ": " + r.outcomes());
        assertEquals(0L, r.outcomes().get(Outcome.ANSWERED), how + ": " + r.outcomes());
        long packets = 0;
        for (CaptureSummary s : r.captures()) {
            packets += s.packets();
        }
        assertEquals(frames, packets, how + ": every frame counted");
    }

    @Test
    void plainSegmentsInOneFileMoveTheClock() throws IOException {
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        write(w, w, 5 * S / 2); // in file order: the SYN, the plain segments, the SYN-ACK
        Path file = Files.write(dir.resolve("one.pcap"), w.toByteArray());
        assertUnanswered(analyze(List.of(file), false), "one thread");
        assertUnanswered(analyze(List.of(file), true), "two threads");
    }

    @Test
    void plainSegmentsAfterTheLastSynMoveTheClockToTheEnd() throws IOException {
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        write(w, w, -1); // the SYN, then 4 s of plain segments: unanswered, not pending, at the end
        Path file = Files.write(dir.resolve("end.pcap"), w.toByteArray());
        assertUnanswered(analyze(List.of(file), false), "one thread", 9);
        assertUnanswered(analyze(List.of(file), true), "two threads", 9);
    }

    @Test
    void plainSegmentsInAnotherFileMoveTheClock() throws IOException {
        PcapWriter handshake = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        PcapWriter plain = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        write(handshake, plain, 9 * S / 2);
        List<Path> files = List.of(Files.write(dir.resolve("handshake.pcap"), handshake.toByteArray()),
                Files.write(dir.resolve("plain.pcap"), plain.toByteArray()));
        assertUnanswered(analyze(files, false), "one thread");
        assertUnanswered(analyze(files, true), "two threads");
    }
}
