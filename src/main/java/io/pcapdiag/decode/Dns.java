package io.pcapdiag.decode;

/**
 * A DNS message (RFC 1035 4.1, with RFC 6891's EDNS0 OPT record): the header, the first question, the addresses of
 * the A and AAAA answers and the extended rcode. Every read is bounded twice: by the captured bytes (past them the
 * message is truncated, as tcpdump's {@code [|domain]}) and by the message's own length, the UDP datagram's (records
 * its counts promise past it are malformed). Names follow compression pointers at most {@link #MAX_POINTERS} times,
 * so a loop ends as an anomaly, as does a label over 63 octets or a name over 255. A malformed message still gives
 * what was read before the fault (its id and flags, usually its question): the exchange is answered or not all the
 * same (docs/design.md, DNS). The first fragment of a fragmented datagram holds the start of its message: what it holds
 * is read, and its end is no anomaly.
 */
final class Dns {
    /** The DNS port (RFC 1035 4.2.1). */
    static final int PORT = 53;
    /** Pointers followed in one name: a chain longer than any real message needs is a loop. */
    static final int MAX_POINTERS = 16;
    /** A name's length on the wire, its length octets included (RFC 1035 2.3.4). */
    static final int MAX_NAME = 255;
    static final int MAX_LABEL = 63;
    static final int TYPE_A = 1;
    static final int TYPE_AAAA = 28;
    static final int TYPE_OPT = 41;

    /** Why a name or a record could not be read: the anomaly it is counted as. */
    private static final int CUT = -1;
    private static final int BEYOND = -2;
    private static final int LABEL = -3;
    private static final int LONG = -4;
    private static final int LOOP = -5;

    private Dns() {
    }

    /**
     * Decodes the message at {@code o}, which ends at {@code end} by its datagram's length, into {@code v}'s DNS
     * fields.
     */
    static void decode(Cursor c, int o, int end, PacketView v) {
        v.dns = true;
        v.dnsMalformed = false;
        v.dnsId = -1;
        v.dnsFlags = 0;
        v.dnsRcode = 0;
        v.dnsQuestions = 0;
        v.dnsAnswers = 0;
        v.dnsQname = null;
        v.dnsQtype = 0;
        v.dnsQclass = 0;
        v.dnsAddressCount = 0;
        v.dnsEdnsSize = -1;
        if (!fits(c, o, 12, end)) {
            fault(v, c, o, 12, end);
            return;
        }
        int questions = c.u16(o + 4);
        int answers = c.u16(o + 6);
        int authority = c.u16(o + 8);
        int additional = c.u16(o + 10);
        int flags = c.u16(o + 2);
        v.dnsId = c.u16(o);
        v.dnsFlags = flags;
        v.dnsRcode = flags & 0x0f;
        v.dnsQuestions = questions;
        v.dnsAnswers = answers;
        int p = o + 12;
        for (int i = 0; i < questions; i++) {
            p = name(c, o, p, end, i == 0 ? v : null);
            if (p < 0) {
                fault(v, c, p);
                return;
            }
            if (!fits(c, p, 4, end)) {
                fault(v, c, p, 4, end);
                return;
            }
            if (i == 0) {
                v.dnsQtype = c.u16(p);
                v.dnsQclass = c.u16(p + 2);
            }
            p += 4;
        }
        int records = answers + authority + additional;
        for (int i = 0; i < records; i++) {
            p = name(c, o, p, end, null);
            if (p < 0) {
                fault(v, c, p);
                return;
            }
            if (!fits(c, p, 10, end)) {
                fault(v, c, p, 10, end);
                return;
            }
            int type = c.u16(p);
            int length = c.u16(p + 8);
            if (!fits(c, p + 10, length, end)) {
                fault(v, c, p + 10, length, end);
                return;
            }
            if (i < answers) {
                answer(c, type, c.u16(p + 2), p + 10, length, v);
            } else if (i >= answers + authority && type == TYPE_OPT) {
                // EDNS0: the OPT record's class is the sender's UDP payload size, its TTL's top octet the rcode's
                // upper 8 bits (RFC 6891 6.1.3).
                v.dnsEdnsSize = c.u16(p + 2);
                v.dnsRcode = (c.u8(p + 4) << 4) | (v.dnsFlags & 0x0f);
            }
            p += 10 + length;
        }
    }

    /** An A or AAAA answer of class IN: its address, among the first {@link PacketView#DNS_ADDRESSES}. */
    private static void answer(Cursor c, int type, int klass, int at, int length, PacketView v) {
        if (klass != 1 || v.dnsAddressCount == PacketView.DNS_ADDRESSES) {
            return;
        }
        int n = v.dnsAddressCount;
        if (type == TYPE_A && length == 4) {
            v.dnsAddressHi[n] = 0;
            v.dnsAddressLo[n] = Ipv4.MAPPED | (c.i32(at) & 0xffffffffL);
            v.dnsAddressCount = n + 1;
        } else if (type == TYPE_AAAA && length == 16) {
            v.dnsAddressHi[n] = c.i64(at);
            v.dnsAddressLo[n] = c.i64(at + 8);
            v.dnsAddressCount = n + 1;
        }
    }

    /**
     * Walks the name at {@code p} of the message starting at {@code msg}; writes it to {@code v}'s question name in
     * presentation form (RFC 1035 5.1: dots between labels, {@code \.}, {@code \\} and {@code \DDD} escapes; the root
     * is {@code .}) when {@code v} is given. Returns the offset after the name where it is stored (after its first
     * pointer), or a negative reason.
     */
    private static int name(Cursor c, int msg, int p, int end, PacketView v) {
        StringBuilder sb = v == null ? null : new StringBuilder(32);
        int after = -1;
        int pointers = 0;
        int length = 0;
        while (true) {
            if (!fits(c, p, 1, end)) {
                return p >= end ? BEYOND : CUT;
            }
            int len = c.u8(p);
            if ((len & 0xc0) == 0xc0) {
                if (!fits(c, p, 2, end)) {
                    return p + 2 > end ? BEYOND : CUT;
                }
                if (++pointers > MAX_POINTERS) {
                    return LOOP;
                }
                if (after < 0) {
                    after = p + 2;
                }
                int target = msg + (c.u16(p) & 0x3fff);
                if (target >= end) {
                    return BEYOND;
                }
                p = target;
                continue;
            }
            if (len > MAX_LABEL) {
                return LABEL; // 0x40 and 0x80: label types no message uses (RFC 6891 5)
            }
            length += len + 1;
            if (length > MAX_NAME) {
                return LONG;
            }
            if (len == 0) {
                if (sb != null) {
                    v.dnsQname = sb.length() == 0 ? "." : sb.toString();
                }
                return after < 0 ? p + 1 : after;
            }
            if (!fits(c, p + 1, len, end)) {
                return p + 1 + len > end ? BEYOND : CUT;
            }
            if (sb != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                label(c, p + 1, len, sb);
            }
            p += 1 + len;
        }
    }

    private static void label(Cursor c, int p, int len, StringBuilder sb) {
        for (int i = 0; i < len; i++) {
            int b = c.u8(p + i);
            if (b == '.' || b == '\\') {
                sb.append('\\').append((char) b);
            } else if (b > 0x20 && b < 0x7f) {
                sb.append((char) b);
            } else {
                sb.append('\\').append((char) ('0' + b / 100)).append((char) ('0' + b / 10 % 10))
                        .append((char) ('0' + b % 10));
            }
        }
    }

    /** {@code n} bytes at {@code p} are both captured and inside the message. */
    private static boolean fits(Cursor c, int p, int n, int end) {
        return p <= end - n && c.has(p, n);
    }

    /** {@code n} bytes at {@code p} could not be read: cut by the capture, or promised past the message's end. */
    private static void fault(PacketView v, Cursor c, int p, int n, int end) {
        fault(v, c, p + n > end ? BEYOND : CUT);
    }

    private static void fault(PacketView v, Cursor c, int reason) {
        if (reason == CUT && c.firstFragment) {
            return; // the rest of the message is in the fragments that follow: what this one holds is read, no anomaly
        }
        String weird = switch (reason) {
            case CUT -> Weird.TRUNCATED_DNS;
            case BEYOND -> Weird.DNS_BEYOND_MESSAGE;
            case LABEL -> Weird.DNS_LABEL_TOO_LONG;
            case LONG -> Weird.DNS_NAME_TOO_LONG;
            default -> Weird.DNS_COMPRESSION_LOOP;
        };
        v.dnsMalformed = true;
        if (v.weird == null) {
            v.weird = weird;
            v.truncated = Weird.isTruncation(weird);
        }
    }
}
