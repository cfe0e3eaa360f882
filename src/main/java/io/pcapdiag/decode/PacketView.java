package io.pcapdiag.decode;

/**
 * What the tracker needs from one packet, filled by {@link Decoder} and reset per packet. Addresses are
 * 128-bit (hi, lo); IPv4 is held IPv4-mapped ({@code ::ffff:a.b.c.d}) so both families share one key.
 */
public final class PacketView {
    public static final int FIN = 0x01;
    public static final int SYN = 0x02;
    public static final int RST = 0x04;
    public static final int PSH = 0x08;
    public static final int ACK = 0x10;
    public static final int URG = 0x20;
    public static final int ECE = 0x40;
    public static final int CWR = 0x80;

    /** What the packet turned out to be. */
    public enum Kind { OTHER, TCP, UDP, ICMP_ERROR, UNDECODABLE }

    public static final int TUNNEL_NONE = 0;
    public static final int TUNNEL_VXLAN = 1;
    public static final int TUNNEL_GENEVE = 2;
    public static final int TUNNEL_IP_IN_IP = 3;

    public Kind kind;
    // Link layer
    /** Linux cooked captures ({@code -i any}): the interface index the packet was captured on, else -1. */
    public int ifIndex;
    /** Linux cooked captures: the packet type (0 to us, 1 broadcast, 2 multicast, 3 to another host, 4 sent by us), else -1. */
    public int packetType;
    public boolean hasSrcMac;
    public boolean hasDstMac;
    public long srcMac;
    public long dstMac;
    // Network layer
    public int ipVersion;
    public long srcHi;
    public long srcLo;
    public long dstHi;
    public long dstLo;
    /** TTL (IPv4) or hop limit (IPv6). */
    public int ttl;
    /** IP payload length as the header states it (what tcpdump prints as "length"). */
    public int ipPayloadLength;
    // TCP and UDP
    public int srcPort;
    public int dstPort;
    public int seq;
    public int ack;
    public int flags;
    public int window;
    public int tcpPayloadLength;
    /**
     * The maximum segment size a SYN offers (its MSS option, RFC 9293 3.7.1, RFC 6691: the largest TCP payload the
     * sender accepts, 0 to 65535), or -1: no SYN, or no MSS option the decoder could read (none; one of another length
     * than 4; one after a malformed option, which ends the walk; one the captured bytes end inside). Read on SYN
     * segments only: the option is sent on no other (RFC 9293 3.7.1) and Linux reads it on no other
     * ({@code tcp_parse_options}).
     */
    public int tcpMss;
    // DNS (over UDP): set by the decoder only where {@link #dns} is true
    /** How many answer addresses a view holds: the first of a message's A and AAAA answers. */
    public static final int DNS_ADDRESSES = 8;
    /** The datagram is to or from the DNS port and carries (the start of) a DNS message. */
    public boolean dns;
    /** The message could not be read to its end (the anomaly says why); what was read before is set. */
    public boolean dnsMalformed;
    /**
     * DNS over TCP: another whole message follows the one read in the same segment ({@link Decoder#decode(Frame,
     * PacketView, int)} reads it).
     */
    public boolean dnsMore;
    /** The transaction id, or -1 when the header itself was cut. */
    public int dnsId;
    /** The header's second 16 bits: QR, opcode, AA, TC, RD, RA, Z, AD, CD and the rcode's lower 4 bits. */
    public int dnsFlags;
    /** The response code, with EDNS0's upper 8 bits when the message has an OPT record (RFC 6891). */
    public int dnsRcode;
    public int dnsQuestions;
    public int dnsAnswers;
    /** The first question's name in presentation form ({@code www.example.com}, the root {@code .}), or null. */
    public String dnsQname;
    public int dnsQtype;
    public int dnsQclass;
    public int dnsAddressCount;
    public final long[] dnsAddressHi = new long[DNS_ADDRESSES];
    public final long[] dnsAddressLo = new long[DNS_ADDRESSES];
    /** EDNS0: the UDP payload size the sender offers, or -1 without an OPT record. */
    public int dnsEdnsSize;
    // ICMP / ICMPv6 error and the packet it quotes
    public int icmpType;
    public int icmpCode;
    /**
     * The MTU an error states the path has: the next-hop MTU of an ICMP "fragmentation needed and DF set" (type 3 code
     * 4, RFC 1191 4: 0 from a router older than RFC 1191) or of an ICMPv6 "packet too big" (type 2, RFC 4443 3.2; above
     * 2^31 - 1, which no link has, it reads as {@link Integer#MAX_VALUE}); -1 for every other error and packet.
     */
    public int icmpMtu;
    public int quotedVersion;
    public long quotedSrcHi;
    public long quotedSrcLo;
    public long quotedDstHi;
    public long quotedDstLo;
    public int quotedProtocol;
    /**
     * The length of the packet the error quotes as its own header states it (IPv4 total length; IPv6 payload length +
     * 40), however much of it the quote holds: a quote cut to 576 bytes still tells a 1500-byte segment. -1 when the
     * quoted IP header is not all captured ({@code quotedVersion} 0).
     */
    public int quotedLength;
    public boolean quotedHasPorts;
    public boolean quotedHasSeq;
    public int quotedSrcPort;
    public int quotedDstPort;
    public int quotedSeq;
    // Tunnel: the outermost encapsulation the packet above was found in (VXLAN, Geneve, IP in IP), or none
    /** {@link #TUNNEL_NONE}, {@link #TUNNEL_VXLAN}, {@link #TUNNEL_GENEVE} or {@link #TUNNEL_IP_IN_IP}. */
    public int tunnelType;
    /** Tunnels entered so far (bounded by the decoder). */
    public int tunnelDepth;
    public long tunnelSrcHi;
    public long tunnelSrcLo;
    public long tunnelDstHi;
    public long tunnelDstLo;
    /** VXLAN / Geneve network identifier, else -1. */
    public int tunnelVni;
    /** The outer UDP destination port of a VXLAN or Geneve tunnel (4789, 8472, 6081), else -1. */
    public int tunnelPort;
    // Outcomes
    /** The captured bytes ended before a header the decoder needed (tcpdump's {@code [|tcp]}). */
    public boolean truncated;
    /** A named anomaly (Zeek "weird" style, stable snake_case id) when something was truncated or malformed. */
    public String weird;

    public void reset() {
        kind = Kind.OTHER;
        ifIndex = -1;
        packetType = -1;
        hasSrcMac = false;
        hasDstMac = false;
        ipVersion = 0;
        flags = 0;
        tcpMss = -1;
        icmpMtu = -1;
        quotedVersion = 0;
        quotedLength = -1;
        quotedProtocol = 0;
        quotedHasPorts = false;
        quotedHasSeq = false;
        truncated = false;
        weird = null;
        tunnelType = TUNNEL_NONE;
        tunnelDepth = 0;
        dns = false;
        dnsMore = false;
    }

    public boolean has(int flag) {
        return (flags & flag) != 0;
    }

    /** A DNS response (QR set), as opposed to a query. */
    public boolean dnsResponse() {
        return (dnsFlags & 0x8000) != 0;
    }
}
