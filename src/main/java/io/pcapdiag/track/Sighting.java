package io.pcapdiag.track;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.PacketView;

/**
 * One evidence packet, kept as decoded fields (never bytes) so that a finding can cite it: where it was
 * captured, when, and enough of its headers for a tcpdump-style line.
 */
public final class Sighting {
    public final Capture capture;
    public final String interfaceName;
    /** Linux cooked captures: interface index and packet type (see {@link PacketView}), else -1. */
    public final int ifIndex;
    public final int packetType;
    public final long frame;
    public final long nanos;
    public final int ipVersion;
    public final long srcHi;
    public final long srcLo;
    public final long dstHi;
    public final long dstLo;
    public final int ttl;
    public final boolean hasSrcMac;
    public final boolean hasDstMac;
    public final long srcMac;
    public final long dstMac;
    /** TCP: ports, flags, seq/ack, window, payload length. ICMP: type/code and the quoted destination. */
    public final boolean icmp;
    public final int srcPort;
    public final int dstPort;
    public final int flags;
    public final int seq;
    public final int ack;
    public final int window;
    public final int length;
    public final int icmpType;
    public final int icmpCode;
    public final long quotedDstHi;
    public final long quotedDstLo;
    public final int quotedDstPort;
    /** ICMP "fragmentation needed" / ICMPv6 "packet too big": the MTU it states; else -1. */
    public final int icmpMtu;
    /** The tunnel the packet was seen inside, or null. */
    public final Tunnel tunnel;
    /** A UDP datagram (then {@link #flags}, {@link #seq}, {@link #ack} and {@link #window} are 0). */
    public final boolean udp;
    /** ICMP errors: the protocol of the quoted datagram (6 TCP, 17 UDP). */
    public final int quotedProtocol;
    /** A DNS message: its id, else -1; then its flags, rcode, question (name null when absent) and answer count. */
    public final int dnsId;
    public final int dnsFlags;
    public final int dnsRcode;
    public final String dnsName;
    public final int dnsType;
    public final int dnsAnswers;

    public Sighting(Frame f, PacketView v) {
        capture = f.capture;
        interfaceName = f.interfaceName;
        ifIndex = v.ifIndex;
        packetType = v.packetType;
        frame = f.number;
        nanos = f.nanos;
        ipVersion = v.ipVersion;
        srcHi = v.srcHi;
        srcLo = v.srcLo;
        dstHi = v.dstHi;
        dstLo = v.dstLo;
        ttl = v.ttl;
        hasSrcMac = v.hasSrcMac;
        hasDstMac = v.hasDstMac;
        srcMac = v.srcMac;
        dstMac = v.dstMac;
        icmp = v.kind == PacketView.Kind.ICMP_ERROR;
        udp = v.kind == PacketView.Kind.UDP;
        srcPort = icmp ? 0 : v.srcPort;
        dstPort = icmp ? 0 : v.dstPort;
        boolean tcp = v.kind == PacketView.Kind.TCP;
        flags = tcp ? v.flags : 0;
        seq = tcp || icmp ? v.seq : 0;
        ack = tcp ? v.ack : 0;
        window = tcp ? v.window : 0;
        // UDP: the datagram's payload, as tcpdump's "(47)" after a DNS message or "length 19".
        length = icmp ? v.ipPayloadLength : udp ? Math.max(0, v.ipPayloadLength - 8) : v.tcpPayloadLength;
        quotedProtocol = icmp ? v.quotedProtocol : 0;
        boolean dns = (udp || tcp) && v.dns && v.dnsId >= 0;
        dnsId = dns ? v.dnsId : -1;
        dnsFlags = dns ? v.dnsFlags : 0;
        dnsRcode = dns ? v.dnsRcode : 0;
        dnsName = dns ? v.dnsQname : null;
        dnsType = dns ? v.dnsQtype : 0;
        dnsAnswers = dns ? v.dnsAnswers : 0;
        icmpType = v.icmpType;
        icmpCode = v.icmpCode;
        quotedDstHi = v.quotedDstHi;
        quotedDstLo = v.quotedDstLo;
        quotedDstPort = v.quotedHasPorts ? v.quotedDstPort : -1;
        icmpMtu = icmp ? v.icmpMtu : -1;
        tunnel = Tunnel.of(v);
    }

    /** The first SYN of an attempt, from the fields the attempt holds inline. */
    Sighting(Attempt a) {
        capture = a.synCapture;
        interfaceName = a.synInterface;
        ifIndex = a.synIfIndex;
        packetType = a.synPacketType;
        frame = a.synFrame;
        nanos = a.synNanos;
        ipVersion = a.ipVersion;
        srcHi = a.clientHi;
        srcLo = a.clientLo;
        dstHi = a.targetHi;
        dstLo = a.targetLo;
        ttl = a.synTtl;
        hasSrcMac = a.synHasSrcMac;
        hasDstMac = a.synHasDstMac;
        srcMac = a.synSrcMac;
        dstMac = a.synDstMac;
        icmp = false;
        srcPort = a.clientPort;
        dstPort = a.targetPort;
        flags = a.synFlags;
        seq = a.synSeq;
        ack = a.synAckNumber;
        window = a.synWindow;
        length = a.synLength;
        icmpType = 0;
        icmpCode = 0;
        quotedDstHi = 0;
        quotedDstLo = 0;
        quotedDstPort = -1;
        icmpMtu = -1;
        tunnel = a.synTunnel;
        udp = a.udp;
        quotedProtocol = 0;
        dnsId = a.query == null ? -1 : a.query.id();
        dnsFlags = a.query == null ? 0 : a.synDnsFlags;
        dnsRcode = 0;
        dnsName = a.query == null ? null : a.query.name();
        dnsType = a.query == null ? 0 : a.query.type();
        dnsAnswers = 0;
    }

    /** How a sentence cites this packet: {@code #13}, or {@code a.pcap #13} when a run reads several captures. */
    public String ref(boolean withCapture) {
        return withCapture ? capture.name() + " #" + frame : "#" + frame;
    }

    /** A DNS response (QR set). */
    public boolean dnsResponse() {
        return dnsId >= 0 && (dnsFlags & 0x8000) != 0;
    }

    public Endpoint source() {
        return icmp ? Endpoint.address(srcHi, srcLo) : new Endpoint(srcHi, srcLo, srcPort);
    }

    public Endpoint destination() {
        return icmp ? Endpoint.address(dstHi, dstLo) : new Endpoint(dstHi, dstLo, dstPort);
    }
}
