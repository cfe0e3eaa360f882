package io.pcapdiag.rules;

import static io.pcapdiag.testing.PacketScript.MS;
import static io.pcapdiag.testing.PacketScript.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.PacketScript;
import io.pcapdiag.testing.TcpBuilder;
import io.pcapdiag.track.Established;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The patterns after the handshake (docs/design.md, "Established connections") on built connections through the whole
 * pipeline, and the rows that must not be one: a slow receiver, a zero window, loss that recovers, a segment sent again
 * smaller, sequence numbers that wrap, a nonsense length, the client's own reset, the backend's address where the node
 * sees it before reverse NAT.
 */
class ConnectionRulesTest {
    static final String C = "10.0.0.1";
    static final int CP = 40000;
    static final String V = "10.96.0.20";
    static final int VP = 8080;
    static final String B = "10.244.1.20";
    static final int BP = 80;
    static final int CISN = 1000;
    static final int SISN = 5000;

    /** A connection under way: the script, and the next sequence numbers of each end. */
    static final class Conn {
        final PacketScript s;
        final String server;
        final int serverPort;
        int c = CISN + 1;
        int sv;
        /** How far the client received the server's data, and acknowledges it. */
        int rcv;

        Conn(PacketScript s, String server, int serverPort, int serverIsn) {
            this.s = s;
            this.server = server;
            this.serverPort = serverPort;
            this.sv = serverIsn + 1;
            this.rcv = sv;
        }

        /** The client sends {@code n} bytes (or again, from {@code seq}) acknowledging what it received. */
        byte[] fromClient(int seq, int n, int flags, int window) {
            return Ipv4Builder.ipv4(C, server).tcp(TcpBuilder.tcp(CP, serverPort).seq(seq).ack(rcv).flags(flags)
                    .window(window).payload(new byte[n])).build();
        }

        byte[] fromServer(String src, int srcPort, int seq, int n, int ack, int flags) {
            return Ipv4Builder.ipv4(src, C).tcp(TcpBuilder.tcp(srcPort, CP).seq(seq).ack(ack).flags(flags)
                    .window(502).payload(new byte[n])).build();
        }

        Conn clientData(long t, int n) {
            s.packet(t, fromClient(c, n, TcpBuilder.ACK | TcpBuilder.PSH, 502), LinkBuilder.MAC_A);
            c += n;
            return this;
        }

        Conn clientAck(long t, int window) {
            s.packet(t, fromClient(c, 0, TcpBuilder.ACK, window), LinkBuilder.MAC_A);
            return this;
        }

        /** The server sends {@code n} new bytes; returns their sequence number. */
        int serverData(long t, int n) {
            int seq = sv;
            s.packet(t, fromServer(server, serverPort, seq, n, c, TcpBuilder.ACK | TcpBuilder.PSH), LinkBuilder.MAC_B);
            sv += n;
            return seq;
        }

        void serverAgain(long t, int seq, int n) {
            s.packet(t, fromServer(server, serverPort, seq, n, c, TcpBuilder.ACK | TcpBuilder.PSH), LinkBuilder.MAC_B);
        }

        /** The client acknowledges the server's bytes up to {@code upTo}. */
        void clientAcks(long t, int upTo, int window) {
            rcv = upTo;
            s.packet(t, Ipv4Builder.ipv4(C, server).tcp(TcpBuilder.tcp(CP, serverPort).seq(c).ack(upTo)
                    .flags(TcpBuilder.ACK).window(window)).build(), LinkBuilder.MAC_A);
        }

        void clientFin(long t) {
            s.packet(t, fromClient(c, 0, TcpBuilder.ACK | TcpBuilder.FIN, 502), LinkBuilder.MAC_A);
        }
    }

    /** A handshake to {@code server}:{@code port} answered at once, then a request acknowledged and a small answer acknowledged. */
    static Conn established(PacketScript s, String server, int port, int serverIsn) {
        s.syn(0, C, CP, server, port, CISN);
        s.synAck(MS, server, port, C, CP, serverIsn, CISN + 1);
        Conn k = new Conn(s, server, port, serverIsn);
        k.clientAck(2 * MS, 502);
        k.clientData(3 * MS, 100);
        int head = k.serverData(4 * MS, 200);
        k.clientAcks(5 * MS, head + 200, 502);
        return k;
    }

    static List<Finding> after(PacketScript s) {
        return s.findings().stream().filter(f -> f.pattern().connection()).toList();
    }

    @Test
    void aFullSizeSegmentSentAgainAndNeverAcknowledgedIsABlackHole() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, SISN);
        int big = k.serverData(10 * MS, 1448);
        k.serverData(11 * MS, 1448);
        k.serverAgain(220 * MS, big, 1448);
        k.serverAgain(640 * MS, big, 1448);
        k.serverAgain(1470 * MS, big, 1448);
        k.clientFin(4 * S);
        List<Finding> f = after(s);
        assertEquals(1, f.size(), f.toString());
        Finding b = f.get(0);
        assertEquals(Pattern.PMTU_BLACKHOLE, b.pattern());
        assertEquals(TrackerEndpoints.endpoint(B, BP), b.responder());
        Established e = b.examples().get(0).established();
        assertEquals(1448, e.lost().lostLength());
        assertEquals(3, e.lost().lostRetransmissions());
        assertEquals(4, e.lost().lostSends().size(), "the first transmission and its three retransmissions");
        assertEquals(200, e.lost().largestAcked());
        assertEquals(1460, e.client().mss(), "the SYN's MSS option");
    }

    @Test
    void lossThatRecoversIsNoBlackHole() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, SISN);
        int big = k.serverData(10 * MS, 1448);
        k.serverAgain(220 * MS, big, 1448);
        k.serverAgain(640 * MS, big, 1448);
        k.clientAcks(641 * MS, big + 1448, 502);
        k.clientFin(2 * S);
        assertEquals(List.of(), after(s));
    }

    @Test
    void aSlowReceiverThatAcknowledgesLateIsNoBlackHole() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, SISN);
        int big = k.serverData(10 * MS, 1448);
        k.serverAgain(220 * MS, big, 1448);
        k.clientAcks(900 * MS, big + 1448, 502);
        k.clientFin(2 * S);
        assertEquals(List.of(), after(s));
    }

    @Test
    void aReceiverAtAZeroWindowIsNoBlackHole() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, SISN);
        int big = k.serverData(10 * MS, 1448);
        k.clientAcks(12 * MS, big, 0);
        k.serverAgain(220 * MS, big, 1448);
        k.clientAcks(221 * MS, big, 0);
        k.serverAgain(640 * MS, big, 1448);
        k.serverAgain(1470 * MS, big, 1448);
        k.clientFin(4 * S);
        assertEquals(List.of(), after(s));
    }

    @Test
    void aSegmentSentAgainSmallerIsPathMtuDiscoveryAtWork() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, SISN);
        int big = k.serverData(10 * MS, 1448);
        k.serverAgain(220 * MS, big, 1398); // the sender lowered its segment size
        k.serverAgain(640 * MS, big, 1398);
        k.serverAgain(1470 * MS, big, 1398);
        k.clientFin(4 * S);
        assertEquals(List.of(), after(s));
    }

    @Test
    void aSmallSegmentUnansweredIsNoBlackHole() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, SISN);
        int hb = k.c;
        k.clientData(500 * MS, 5);
        for (long t : new long[] {700, 900, 1300, 2100}) {
            s.packet(t * MS, k.fromClient(hb, 5, TcpBuilder.ACK | TcpBuilder.PSH, 502), LinkBuilder.MAC_A);
        }
        assertEquals(List.of(), after(s), "5 bytes, smaller than the 100 acknowledged: no MTU at stake, and nothing ended it");
    }

    @Test
    void sequenceNumbersThatWrapAreFollowed() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, -2000); // the server's data crosses 2^32 at once
        int big = k.serverData(10 * MS, 1448);
        k.clientAcks(11 * MS, big + 1448, 502);
        int next = k.serverData(12 * MS, 1448);
        k.clientAcks(13 * MS, next + 1448, 502);
        k.clientFin(S);
        assertEquals(List.of(), after(s));

        PacketScript lost = new PacketScript();
        Conn w = established(lost, B, BP, -500);
        int seg = w.serverData(10 * MS, 1448);
        assertTrue(seg < 0 && seg + 1448 > 0, "the segment spans the wrap");
        w.serverAgain(220 * MS, seg, 1448);
        w.serverAgain(640 * MS, seg, 1448);
        w.clientFin(3 * S);
        assertEquals(List.of(Pattern.PMTU_BLACKHOLE), after(lost).stream().map(Finding::pattern).toList());
    }

    @Test
    void aSegmentWithANonsenseLengthIsNoFinding() {
        PacketScript s = new PacketScript();
        Conn k = established(s, B, BP, SISN);
        // The IP header claims 60,000 bytes the frame does not hold: counted as truncated, never a black hole.
        s.packet(10 * MS, Ipv4Builder.ipv4(B, C).totalLength(60_000).tcp(TcpBuilder.tcp(BP, CP).seq(k.sv).ack(k.c)
                .flags(TcpBuilder.ACK)).build(), LinkBuilder.MAC_B);
        s.packet(11 * MS, Ipv4Builder.ipv4(B, C).totalLength(30).tcp(TcpBuilder.tcp(BP, CP).seq(k.sv).ack(k.c)
                .flags(TcpBuilder.ACK)).build(), LinkBuilder.MAC_B);
        k.clientFin(S);
        assertEquals(List.of(), after(s));
    }

    @Test
    void aReplyFromTheBackendsOwnAddressThatTheClientResetsIsResetAfterReply() {
        PacketScript s = new PacketScript();
        Conn k = established(s, V, VP, SISN);
        // conntrack lost the entry: the backend's next segment reaches the pod un-NAT'ed, and the pod refuses it.
        s.packet(S, k.fromServer(B, BP, k.sv, 200, k.c, TcpBuilder.ACK | TcpBuilder.PSH), LinkBuilder.MAC_B);
        s.packet(S + 10_000, Ipv4Builder.ipv4(C, B).tcp(TcpBuilder.tcp(CP, BP).seq(k.c).flags(TcpBuilder.RST)).build(),
                LinkBuilder.MAC_A);
        List<Finding> f = after(s);
        assertEquals(List.of(Pattern.RESET_AFTER_REPLY), f.stream().map(Finding::pattern).toList());
        assertEquals(TrackerEndpoints.endpoint(B, BP), f.get(0).responder());
        assertEquals(TrackerEndpoints.endpoint(V, VP), f.get(0).target());
    }

    @Test
    void theBackendsAddressBeforeReverseNatIsNoBypass() {
        PacketScript s = new PacketScript();
        s.packetOn(0, PacketScript.synPacket(C, CP, V, VP, CISN), 4);
        s.packetOn(100_000, PacketScript.synPacket(C, CP, B, BP, CISN), 2); // DNAT'ed, leaving by the node's eth0
        Conn k = new Conn(s, V, VP, SISN);
        byte[] synAckB = Ipv4Builder.ipv4(B, C).tcp(TcpBuilder.tcp(BP, CP).seq(SISN).ack(CISN + 1)
                .flags(TcpBuilder.SYN | TcpBuilder.ACK)).build();
        byte[] synAckV = Ipv4Builder.ipv4(V, C).tcp(TcpBuilder.tcp(VP, CP).seq(SISN).ack(CISN + 1)
                .flags(TcpBuilder.SYN | TcpBuilder.ACK)).build();
        s.packetOn(MS, synAckB, 2);
        s.packetOn(MS + 10_000, synAckV, 4);
        // Every segment of the backend arrives on eth0 with its own address, and reaches the pod's veth as the Service's.
        for (int i = 0; i < 3; i++) {
            long t = (10 + i) * MS;
            s.packetOn(t, k.fromServer(B, BP, k.sv, 100, k.c, TcpBuilder.ACK), 2);
            s.packetOn(t + 10_000, k.fromServer(V, VP, k.sv, 100, k.c, TcpBuilder.ACK), 4);
            k.sv += 100;
        }
        // The client ends with RST of its own (to the Service, DNAT'ed on to the backend).
        s.packetOn(20 * MS, k.fromClient(k.c, 0, TcpBuilder.RST, 0), 4);
        s.packetOn(20 * MS + 10_000, Ipv4Builder.ipv4(C, B).tcp(TcpBuilder.tcp(CP, BP).seq(k.c).flags(TcpBuilder.RST)).build(), 2);
        assertEquals(List.of(), after(s));
    }

    @Test
    void anIcmpUnreachableAboutTheClientsUnansweredSegmentIsAGoneEndpoint() {
        PacketScript s = new PacketScript();
        Conn k = established(s, V, VP, SISN);
        int hb = k.c;
        k.clientData(500 * MS, 5);
        for (long t : new long[] {700, 900, 1300, 2100}) {
            s.packet(t * MS, k.fromClient(hb, 5, TcpBuilder.ACK | TcpBuilder.PSH, 502), LinkBuilder.MAC_A);
        }
        s.unreachable(2500 * MS, V, C, 1, k.fromClient(hb, 5, TcpBuilder.ACK | TcpBuilder.PSH, 502), 64);
        List<Finding> f = after(s);
        assertEquals(List.of(Pattern.RESET_BY_GONE_ENDPOINT), f.stream().map(Finding::pattern).toList());
        assertEquals(TrackerEndpoints.address(V), f.get(0).responder());
    }

    @Test
    void aServerResetWithNothingUnansweredIsNoGoneEndpoint() {
        PacketScript s = new PacketScript();
        Conn k = established(s, V, VP, SISN);
        s.packet(S, k.fromServer(V, VP, k.sv, 0, k.c, TcpBuilder.RST | TcpBuilder.ACK), LinkBuilder.MAC_B);
        assertEquals(List.of(), after(s));
    }

    @Test
    void aServerResetAfterTheClientsDataWentUnansweredIsAGoneEndpoint() {
        PacketScript s = new PacketScript();
        Conn k = established(s, V, VP, SISN);
        int hb = k.c;
        k.clientData(500 * MS, 5);
        s.packet(720 * MS, k.fromClient(hb, 5, TcpBuilder.ACK | TcpBuilder.PSH, 502), LinkBuilder.MAC_A);
        s.packet(S, k.fromServer(V, VP, k.sv, 0, k.c, TcpBuilder.RST), LinkBuilder.MAC_B);
        assertEquals(List.of(Pattern.RESET_BY_GONE_ENDPOINT), after(s).stream().map(Finding::pattern).toList());
    }

    @Test
    void followedConnectionsAreBoundedAndTheirEvictionsCounted() {
        PacketScript s = new PacketScript(new Analysis.Options(64, Analysis.Options.DEFAULT_MAX_FINDINGS, List.of()));
        for (int i = 0; i < 200; i++) {
            String client = "10.1." + (i / 250) + "." + (i % 250 + 1);
            long t = i * MS;
            s.syn(t, client, CP, B, BP, CISN);
            s.synAck(t + 100_000, B, BP, client, CP, SISN, CISN + 1);
        }
        var tracker = s.finish().tracker();
        assertEquals(200, tracker.attempts());
        assertTrue(tracker.connectionsEvicted() >= 200 - 64 - 1, "evicted " + tracker.connectionsEvicted());
        assertEquals(200, tracker.connectionsFollowed(), "every connection decided once, evicted or not");
    }

    @Test
    void liveWithoutEveryFollowsNothing() {
        PacketScript s = new PacketScript(new Analysis.Options(Analysis.Options.DEFAULT_MAX_OPEN,
                Analysis.Options.DEFAULT_MAX_FINDINGS, List.of(), 0, false));
        Conn k = established(s, B, BP, SISN);
        int big = k.serverData(10 * MS, 1448);
        k.serverAgain(220 * MS, big, 1448);
        k.serverAgain(640 * MS, big, 1448);
        k.serverAgain(1470 * MS, big, 1448);
        k.clientFin(4 * S);
        assertEquals(List.of(), after(s));
        assertEquals(0, s.finish().tracker().connectionsFollowed());
    }

    /** Endpoints for assertions. */
    static final class TrackerEndpoints {
        static io.pcapdiag.decode.Endpoint endpoint(String address, int port) {
            long[] a = io.pcapdiag.testing.Addresses.hiLo(address);
            return new io.pcapdiag.decode.Endpoint(a[0], a[1], port);
        }

        static io.pcapdiag.decode.Endpoint address(String address) {
            long[] a = io.pcapdiag.testing.Addresses.hiLo(address);
            return io.pcapdiag.decode.Endpoint.address(a[0], a[1]);
        }
    }
}
