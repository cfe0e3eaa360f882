package io.pcapdiag.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.testing.DnsBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.TcpBuilder;
import io.pcapdiag.track.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A TCP segment may carry several DNS messages (RFC 7766 6.2.1.1): glibc writes its A and AAAA queries in one, and a
 * server may answer both in one. Each is a query of its own, read, tracked and answered, on one thread and on two, and
 * when live feeds the frames.
 */
class DnsOverTcpMessagesTest {
    private static final String CLIENT = "10.244.0.18";
    private static final String DNS = "10.96.0.10";
    private static final String NAME = "web.default.svc.cluster.local";
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private static byte[] framed(byte[]... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] m : messages) {
            out.write(m.length >> 8);
            out.write(m.length & 0xff);
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    private static byte[] segment(String src, int sport, String dst, int dport, int seq, int ack, int flags, byte[] payload) {
        return LinkBuilder.ethernet(Ipv4Builder.ipv4(src, dst)
                .tcp(TcpBuilder.tcp(sport, dport).seq(seq).ack(ack).flags(flags).payload(payload)).build());
    }

    /** A lookup over TCP: handshake, both queries in one segment, {@code answers} as the server's payloads, close. */
    private Path capture(byte[]... answers) throws IOException {
        PcapWriter w = PcapWriter.nano(ByteOrder.LITTLE_ENDIAN);
        long t = 1_700_000_000_000_000_000L;
        w.packet(t, segment(CLIENT, 40777, DNS, 53, 1000, 0, TcpBuilder.SYN, new byte[0]));
        w.packet(t + MS, segment(DNS, 53, CLIENT, 40777, 5000, 1001, TcpBuilder.SYN | TcpBuilder.ACK, new byte[0]));
        byte[] queries = framed(DnsBuilder.query(11, NAME, 1).build(), DnsBuilder.query(12, NAME, 28).build());
        w.packet(t + 2 * MS, segment(CLIENT, 40777, DNS, 53, 1001, 5001, TcpBuilder.PSH | TcpBuilder.ACK, queries));
        int seq = 5001;
        long at = t + 3 * MS;
        for (byte[] a : answers) {
            w.packet(at, segment(DNS, 53, CLIENT, 40777, seq, 1001 + queries.length, TcpBuilder.PSH | TcpBuilder.ACK, a));
            seq += a.length;
            at += MS;
        }
        Path file = dir.resolve("tcp-dns.pcap");
        Files.write(file, w.toByteArray());
        return file;
    }

    private static byte[] answerA() {
        return DnsBuilder.query(11, NAME, 1).response(0).answerA("10.96.10.80").build();
    }

    private static byte[] answerAaaa() {
        return DnsBuilder.query(12, NAME, 28).response(0).answerAaaa("fd00:10:96::a").build();
    }

    private static void assertBothAnswered(Result r) {
        assertEquals(2L, r.dnsOutcomes().get(Outcome.ANSWERED), "both queries of the one segment: " + r.dnsOutcomes());
        assertEquals(0L, r.tracker().unmatchedAnswers(), "every answer found its query");
    }

    @ParameterizedTest(name = "pipelined {0}")
    @ValueSource(booleans = {true, false})
    void twoQueriesInOneSegmentAnsweredInOneAreTwoAnsweredQueries(boolean pipelined) throws IOException {
        Path file = capture(framed(answerA(), answerAaaa()));
        assertBothAnswered(ReadFiles.read(List.of(file), pipelined).finish());
    }

    @ParameterizedTest(name = "pipelined {0}")
    @ValueSource(booleans = {true, false})
    void twoQueriesInOneSegmentAnsweredInTwoAreTwoAnsweredQueries(boolean pipelined) throws IOException {
        Path file = capture(framed(answerAaaa()), framed(answerA()));
        assertBothAnswered(ReadFiles.read(List.of(file), pipelined).finish());
    }

    @Test
    void liveFeedingTheFramesReadsEveryMessageToo() throws IOException, CaptureException {
        Path file = capture(framed(answerA(), answerAaaa()));
        Analysis a = new Analysis(Analysis.Options.defaults());
        Capture cap = new Capture(0, file.toString());
        CaptureSummary summary = a.register(cap);
        try (FrameSource src = Reader.BUILTIN.open(cap)) {
            for (Frame f = src.next(); f != null; f = src.next()) {
                a.feed(f, summary);
            }
        }
        assertBothAnswered(a.finish());
    }
}
