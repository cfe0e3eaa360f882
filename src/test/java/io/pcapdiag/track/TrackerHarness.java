package io.pcapdiag.track;

import static io.pcapdiag.testing.TcpBuilder.tcp;

import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.Decoder;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;
import io.pcapdiag.testing.Addresses;
import io.pcapdiag.testing.Frames;
import io.pcapdiag.testing.IcmpBuilder;
import io.pcapdiag.testing.Ipv4Builder;
import io.pcapdiag.testing.Ipv6Builder;
import io.pcapdiag.testing.LinkBuilder;
import io.pcapdiag.testing.TcpBuilder;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Feeds built packets through the real decoder into a {@link HandshakeTracker} and collects what it
 * decides. Times are capture times in nanoseconds; packets go out as Linux cooked v2 (as {@code -i any}).
 */
final class TrackerHarness {
    static final long MS = 1_000_000L;
    static final long S = 1_000_000_000L;
    /** Capture times start here, far from the wall clock on purpose. */
    static final long T0 = 1_500_000_000L * S;

    final List<Attempt> decided = new ArrayList<>();
    /** How many times the sink saw each attempt. */
    final Map<Attempt, Integer> deliveries = new IdentityHashMap<>();
    final HandshakeTracker tracker;
    private final Decoder decoder = new Decoder();
    private long frameNumber;

    TrackerHarness(int maxOpen) {
        tracker = new HandshakeTracker(a -> {
            decided.add(a);
            deliveries.merge(a, 1, Integer::sum);
            return true;
        }, maxOpen);
    }

    TrackerHarness() {
        this(100_000);
    }

    /** Builds an IPv4 or IPv6 packet by the addresses' family. */
    static byte[] ip(String src, String dst, TcpBuilder t) {
        return src.indexOf(':') >= 0 ? Ipv6Builder.ipv6(src, dst).tcp(t).build() : Ipv4Builder.ipv4(src, dst).tcp(t).build();
    }

    static byte[] synPacket(String src, int sport, String dst, int dport, int isn) {
        return ip(src, dst, tcp(sport, dport).seq(isn).flags(TcpBuilder.SYN).options(TcpBuilder.mss(1460)));
    }

    PacketView feed(long nanos, byte[] ipPacket, String iface) {
        Frame f = Frames.frame(LinkBuilder.LINKTYPE_LINUX_SLL2, LinkBuilder.sll2(LinkBuilder.MAC_A, ipPacket), nanos, iface);
        f.number = ++frameNumber;
        PacketView v = new PacketView();
        decoder.decode(f, v);
        tracker.observe(f, v);
        return v;
    }

    PacketView feed(long nanos, byte[] ipPacket) {
        return feed(nanos, ipPacket, "any");
    }

    void syn(long t, String src, int sport, String dst, int dport, int isn) {
        feed(t, synPacket(src, sport, dst, dport, isn));
    }

    void syn(long t, String src, int sport, String dst, int dport, int isn, String iface) {
        feed(t, synPacket(src, sport, dst, dport, isn), iface);
    }

    void synAck(long t, String src, int sport, String dst, int dport, int seq, int ack) {
        feed(t, ip(src, dst, tcp(sport, dport).seq(seq).ack(ack).flags(TcpBuilder.SYN | TcpBuilder.ACK)));
    }

    void rst(long t, String src, int sport, String dst, int dport, int seq, int ack, boolean ackFlag) {
        feed(t, ip(src, dst, tcp(sport, dport).seq(seq).ack(ack).flags(TcpBuilder.RST | (ackFlag ? TcpBuilder.ACK : 0))));
    }

    /** An ICMP / ICMPv6 destination unreachable from {@code from} quoting {@code quoteLen} bytes of {@code quoted}. */
    void unreachable(long t, String from, String to, int code, byte[] quoted, int quoteLen) {
        byte[] p = from.indexOf(':') >= 0
                ? Ipv6Builder.ipv6(from, to).icmpv6(IcmpBuilder.v6Unreachable(code, quoted, quoteLen)).build()
                : Ipv4Builder.ipv4(from, to).icmp(IcmpBuilder.v4Unreachable(code, quoted, quoteLen)).build();
        feed(t, p);
    }

    /** Any packet that only moves capture time on. */
    void tick(long t) {
        // An IP packet of a protocol the tracker does not follow (253, RFC 3692 experimentation): it only tells the time.
        feed(t, Ipv4Builder.ipv4("192.0.2.250", "192.0.2.251").payload(253, new byte[8]).build());
    }

    void finish() {
        tracker.finish();
    }

    Attempt only() {
        if (decided.size() != 1) {
            throw new AssertionError("expected one decided attempt, got " + decided.size());
        }
        return decided.get(0);
    }

    static Endpoint endpoint(String address, int port) {
        long[] a = Addresses.hiLo(address);
        return new Endpoint(a[0], a[1], port);
    }

    static Endpoint address(String address) {
        long[] a = Addresses.hiLo(address);
        return Endpoint.address(a[0], a[1]);
    }
}
