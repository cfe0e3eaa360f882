package io.pcapdiag.testing;

import static io.pcapdiag.testing.TcpBuilder.tcp;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.context.Context;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.rules.Finding;
import java.util.List;
import java.util.Random;

/**
 * A capture written as a script of packets (SYN, SYN-ACK, RST, ICMP error at capture times), played
 * through the real pipeline (decoder, tracker, rules, context) as {@code -i any} would have recorded it.
 * Times are nanoseconds from {@link #T0}.
 */
public final class PacketScript {
    public static final long MS = 1_000_000L;
    public static final long S = 1_000_000_000L;
    public static final long T0 = 1_700_000_000L * S;

    private final Analysis analysis;
    private final CaptureSummary summary;
    private long frameNumber;
    private Result result;

    public PacketScript() {
        this(List.of());
    }

    /** @param context sources of context besides the capture ({@code --lb-ip}, a cluster, ...) */
    public PacketScript(List<Context> context) {
        this(context, Analysis.Options.DEFAULT_MAX_FINDINGS);
    }

    /** @param maxGroups the bound on distinct findings */
    public PacketScript(List<Context> context, int maxGroups) {
        this(new Analysis.Options(Analysis.Options.DEFAULT_MAX_OPEN, maxGroups, context));
    }

    public PacketScript(Analysis.Options options) {
        analysis = new Analysis(options);
        analysis.setPipelined(false);
        summary = analysis.register(Frames.CAPTURE);
        summary.opened(true); // as a reader marks the capture it opened
    }

    /** The analysis fed (to set it up as live does). */
    public Analysis analysis() {
        return analysis;
    }

    /** Builds an IPv4 or IPv6 packet by the addresses' family. */
    static byte[] ip(String src, String dst, TcpBuilder t) {
        return src.indexOf(':') >= 0 ? Ipv6Builder.ipv6(src, dst).tcp(t).build() : Ipv4Builder.ipv4(src, dst).tcp(t).build();
    }

    public static byte[] synPacket(String src, int sport, String dst, int dport, int isn) {
        return ip(src, dst, tcp(sport, dport).seq(isn).flags(TcpBuilder.SYN).options(TcpBuilder.mss(1460)));
    }

    /** Feeds one IP packet captured at {@code T0 + t}, from a source MAC of {@code mac}. */
    public PacketScript packet(long t, byte[] ipPacket, long mac) {
        Frame f = Frames.frame(LinkBuilder.LINKTYPE_LINUX_SLL2, LinkBuilder.sll2(mac, ipPacket), T0 + t, null);
        f.number = ++frameNumber;
        f.fileOffset = 24 + 100 * frameNumber;
        analysis.feed(f, summary);
        return this;
    }

    /** Feeds one IP packet as {@code tcpdump -i any} records it arriving on interface {@code ifIndex}. */
    public PacketScript packetOn(long t, byte[] ipPacket, int ifIndex) {
        byte[] sll2 = LinkBuilder.sll2(LinkBuilder.ethertypeOf(ipPacket), ifIndex, LinkBuilder.ARPHRD_ETHER, LinkBuilder.PACKET_HOST,
                Addresses.macBytes(LinkBuilder.MAC_A), ipPacket);
        Frame f = Frames.frame(LinkBuilder.LINKTYPE_LINUX_SLL2, sll2, T0 + t, null);
        f.number = ++frameNumber;
        f.fileOffset = 24 + 100 * frameNumber;
        analysis.feed(f, summary);
        return this;
    }

    /**
     * Feeds one IP packet as a raw-IP capture records it: no interface index; {@code iface} names the interface as a
     * pcapng IDB or {@code --label} does, or is null as in a one-interface pcap.
     */
    public PacketScript rawPacket(long t, byte[] ipPacket, String iface) {
        Frame f = Frames.frame(LinkBuilder.LINKTYPE_RAW, ipPacket, T0 + t, iface);
        f.number = ++frameNumber;
        f.fileOffset = 24 + 100 * frameNumber;
        analysis.feed(f, summary);
        return this;
    }

    public PacketScript syn(long t, String src, int sport, String dst, int dport, int isn) {
        return packet(t, synPacket(src, sport, dst, dport, isn), LinkBuilder.MAC_A);
    }

    public PacketScript synAck(long t, String src, int sport, String dst, int dport, int seq, int ack) {
        return packet(t, ip(src, dst, tcp(sport, dport).seq(seq).ack(ack).flags(TcpBuilder.SYN | TcpBuilder.ACK)),
                LinkBuilder.MAC_B);
    }

    /** A RST; {@code ackFlag} as a refusing host sends it (RST+ACK, ack = ISN+1), not as a client resets (seq = ISN+1). */
    public PacketScript rst(long t, String src, int sport, String dst, int dport, int seq, int ack, boolean ackFlag) {
        return packet(t, ip(src, dst, tcp(sport, dport).seq(seq).ack(ack).flags(TcpBuilder.RST | (ackFlag ? TcpBuilder.ACK : 0))),
                LinkBuilder.MAC_B);
    }

    /** An ICMP / ICMPv6 destination unreachable from {@code from} to {@code to} quoting all of {@code quoted}. */
    public PacketScript unreachable(long t, String from, String to, int code, byte[] quoted, int ttl) {
        byte[] p = from.indexOf(':') >= 0
                ? Ipv6Builder.ipv6(from, to).hopLimit(ttl).icmpv6(IcmpBuilder.v6Unreachable(code, quoted, quoted.length)).build()
                : Ipv4Builder.ipv4(from, to).ttl(ttl).icmp(IcmpBuilder.v4Unreachable(code, quoted, quoted.length)).build();
        return packet(t, p, LinkBuilder.MAC_B);
    }

    /**
     * {@code attempts} SYNs a millisecond apart, each refused, unanswered, rejected by a router, or rejected as port
     * unreachable by the dialed address itself (vip-local-reject: an error, the others warnings); clients and targets
     * repeat (addresses that tie on their upper or lower half, v4 and v6 alike), so findings have several attempt
     * counts and every field of the report's order decides some comparisons.
     */
    public PacketScript mixedFailures(int attempts, long seed) {
        String[] clients = {"10.244.0.2", "10.244.0.10", "10.244.1.2", "192.168.5.1", "fd00::2", "fd00::1:2", "fd01::2"};
        String[] targets4 = {"10.96.0.10", "10.96.0.9", "10.244.0.10"};
        String[] targets6 = {"fd00:96::10", "fd00:96::1:10"};
        int[] ports = {80, 443, 8080};
        Random rnd = new Random(seed);
        long t = 0;
        for (int i = 0; i < attempts; i++) {
            String client = clients[rnd.nextInt(clients.length)];
            boolean v6 = client.indexOf(':') >= 0;
            String target = v6 ? targets6[rnd.nextInt(targets6.length)] : targets4[rnd.nextInt(targets4.length)];
            int port = ports[rnd.nextInt(ports.length)];
            int sport = 30000 + i;
            int isn = 1000 * i;
            t += MS;
            syn(t, client, sport, target, port, isn);
            switch (rnd.nextInt(4)) {
                case 0 -> rst(t + MS / 2, target, port, client, sport, 0, isn + 1, true); // refused
                case 1 -> { } // no answer
                case 2 -> unreachable(t + MS / 2, target, client, 3, synPacket(client, sport, target, port, isn), 64);
                default -> { // unreachable, from one of two routers of the client's family
                    String router = v6 ? (rnd.nextBoolean() ? "fd00::fe" : "fd00::1:fe")
                            : (rnd.nextBoolean() ? "10.244.0.1" : "10.244.1.1");
                    unreachable(t + MS / 2, router, client, 1, synPacket(client, sport, target, port, isn), 64);
                }
            }
        }
        return this;
    }

    /** Ends the capture at the last packet and returns what the analysis found. */
    public Result finish() {
        if (result == null) {
            result = analysis.finish();
        }
        return result;
    }

    public List<Finding> findings() {
        return finish().findings();
    }

    /** Every finding, diagnosed. */
    public List<Diagnosis> diagnoses() {
        return Report.of(finish(), Integer.MAX_VALUE, null).diagnoses();
    }
}
