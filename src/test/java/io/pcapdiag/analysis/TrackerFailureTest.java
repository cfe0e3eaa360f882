package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.TcpBuilder;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bug past the decoder (the tracker, the findings, a listener) is a bug of the run on one thread as on two: it comes
 * out of {@link Analysis#read}, never as a capture whose reader failed and whose rest is not read. On one thread the
 * tracker decides attempts inside the source's read loop, as plain segments move its clock.
 */
class TrackerFailureTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 1_700_000_000L * S;

    @TempDir
    Path dir;

    @Test
    void aFailureWhereAnAttemptIsDecidedComesOutOfTheRead() throws IOException {
        // A SYN, then 6 s of a connection's plain segments: the SYN is decided 4 s on, during the read.
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN);
        w.packet(T0, LinkBuilder.ethernet(Ipv4Builder.ipv4("10.244.0.5", "10.96.0.10")
                .tcp(TcpBuilder.tcp(40000, 80).seq(1000).flags(TcpBuilder.SYN)).build()));
        for (int i = 1; i <= 12; i++) {
            w.packet(T0 + i * S / 2, LinkBuilder.ethernet(Ipv4Builder.ipv4("10.244.0.7", "10.244.0.8")
                    .tcp(TcpBuilder.tcp(5000, 80).seq(7 + i).ack(9).flags(TcpBuilder.ACK).payload(new byte[10])).build()));
        }
        Path capture = Files.write(dir.resolve("decided-during-read.pcap"), w.toByteArray());
        for (boolean pipelined : new boolean[] {false, true}) {
            IllegalStateException bug = new IllegalStateException("a listener's bug");
            Analysis a = new Analysis(Analysis.Options.defaults());
            a.setPipelined(pipelined);
            a.onDecided(attempt -> {
                throw bug;
            });
            RuntimeException thrown = assertThrows(RuntimeException.class, () -> ReadFiles.read(a, List.of(capture)),
                    "pipelined " + pipelined);
            assertSame(bug, thrown, "pipelined " + pipelined);
        }
    }
}
