package io.pcapdiag.testing;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * DNS messages as RFC 1035 4.1 lays them out: a header, one question, answers whose names point back at the
 * question's (compression pointer 0xc00c), and an EDNS0 OPT record (RFC 6891) when asked for.
 */
public final class DnsBuilder {
    private final int id;
    private final String name;
    private final int qtype;
    private int flags = 0x0100; // a query, recursion desired
    private final List<byte[]> answers = new ArrayList<>();
    private byte[] opt;
    private boolean noQuestion;

    private DnsBuilder(int id, String name, int qtype) {
        this.id = id;
        this.name = name;
        this.qtype = qtype;
    }

    public static DnsBuilder query(int id, String name, int qtype) {
        return new DnsBuilder(id, name, qtype);
    }

    /** A response (QR, RA) with {@code rcode}'s lower 4 bits in the header. */
    public DnsBuilder response(int rcode) {
        flags = 0x8180 | (rcode & 0x0f);
        return this;
    }

    /** Sets TC: the answer was truncated to fit the datagram (RFC 1035 4.1.1). */
    public DnsBuilder truncated() {
        flags |= 0x0200;
        return this;
    }

    /** Leaves the question section out (unbound's REFUSED carries none). */
    public DnsBuilder noQuestion() {
        noQuestion = true;
        return this;
    }

    public DnsBuilder answerA(String address) {
        return answer(1, ip(address));
    }

    public DnsBuilder answerAaaa(String address) {
        return answer(28, ip(address));
    }

    public DnsBuilder answer(int type, byte[] rdata) {
        answers.add(new Buf().u16(0xc00c).u16(type).u16(1).u32(30).u16(rdata.length).bytes(rdata).toByteArray());
        return this;
    }

    /** The OPT record: the UDP payload size offered and the upper 8 bits of the rcode. */
    public DnsBuilder opt(int udpSize, int extendedRcode) {
        opt = new Buf().u8(0).u16(41).u16(udpSize).u8(extendedRcode).u8(0).u16(0).u16(0).toByteArray();
        return this;
    }

    public byte[] build() {
        Buf b = new Buf().u16(id).u16(flags).u16(noQuestion ? 0 : 1).u16(answers.size()).u16(0).u16(opt == null ? 0 : 1);
        if (!noQuestion) {
            b.bytes(name(name)).u16(qtype).u16(1);
        }
        answers.forEach(b::bytes);
        if (opt != null) {
            b.bytes(opt);
        }
        return b.toByteArray();
    }

    /** A name as length-prefixed labels ending in the root's empty label. */
    public static byte[] name(String dotted) {
        Buf b = new Buf();
        for (String label : dotted.split("\\.")) {
            if (!label.isEmpty()) {
                b.u8(label.length()).bytes(label.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
        return b.u8(0).toByteArray();
    }

    /** A UDP header (length set, checksum 0: none) and its payload. */
    public static byte[] udp(int srcPort, int dstPort, byte[] payload) {
        return new Buf().u16(srcPort).u16(dstPort).u16(8 + payload.length).u16(0).bytes(payload).toByteArray();
    }

    private static byte[] ip(String address) {
        try {
            return InetAddress.getByName(address).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(address, e);
        }
    }
}
