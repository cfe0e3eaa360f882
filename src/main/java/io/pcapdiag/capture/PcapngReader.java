package io.pcapdiag.capture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * pcapng (draft-ietf-opsawg-pcapng): sections in either byte order, several interfaces with their own
 * link type, {@code if_tsresol} and {@code if_tsoffset}; Enhanced, Simple and obsolete Packet Blocks.
 * Blocks of other types are skipped by their length.
 */
final class PcapngReader extends AbstractFileSource {
    static final int SHB = 0x0A0D0D0A;
    private static final int BYTE_ORDER_MAGIC = 0x1A2B3C4D;
    private static final int IDB = 1;
    private static final int OBSOLETE_PB = 2;
    private static final int SPB = 3;
    private static final int EPB = 6;
    private static final int OPT_END = 0;
    private static final int IF_NAME = 2;
    private static final int IF_TSRESOL = 9;
    private static final int IF_TSOFFSET = 14;
    /** Smallest Section Header Block: type, length, byte-order magic, version, section length, trailing length. */
    private static final int FIRST_SHB = 28;
    /** Largest block we accept; libpcap uses 16 MiB as well. */
    private static final int MAX_BLOCK = 16 << 20;

    /** One Interface Description Block of the current section. */
    private record Iface(int linkType, int snaplen, String name, long unitsPerSecond, boolean powerOfTwo,
                         int exponent, long offsetSeconds) {
    }

    private boolean bigEndian;
    private long lastNanos;
    private final List<Iface> interfaces = new ArrayList<>();
    private final List<Integer> linkTypesSeen = new ArrayList<>();

    PcapngReader(Capture capture, ByteInput in) throws CaptureException {
        super(capture, in);
        try {
            // The first Section Header Block is checked whole, as libpcap does before it reads a packet: a file that
            // does not start with a valid one is not a pcapng capture (tcpdump: exit 1; pcapdiag: no input, exit 3).
            if (!in.ensure(FIRST_SHB)) {
                throw corrupt(0, "truncated pcapng section header: " + in.available() + " of " + FIRST_SHB + " bytes");
            }
            int bom = Bytes.i32be(in.buf, in.pos + 8);
            if (bom != BYTE_ORDER_MAGIC && Integer.reverseBytes(bom) != BYTE_ORDER_MAGIC) {
                throw corrupt(8, String.format(java.util.Locale.ROOT,
                        "section header byte-order magic 0x%08x is neither 0x1a2b3c4d nor its reverse", bom));
            }
            boolean big = bom == BYTE_ORDER_MAGIC;
            long len = Bytes.u32(in.buf, in.pos + 4, big);
            if (len < FIRST_SHB || len % 4 != 0 || len > MAX_BLOCK) {
                throw corrupt(4, "section header block length " + len + " is not a multiple of 4 between "
                        + FIRST_SHB + " and " + MAX_BLOCK);
            }
            int major = Bytes.u16(in.buf, in.pos + 12, big);
            int minor = Bytes.u16(in.buf, in.pos + 14, big);
            if (!readableVersion(major, minor)) {
                throw corrupt(12, "unsupported pcapng version " + major + "." + minor + " (libpcap and pcapdiag read 1.0 and 1.2)");
            }
        } catch (IOException e) {
            throw io(e);
        }
    }

    @Override
    public boolean interleavesInterfaces() {
        return true;
    }

    /** Link types of the interfaces seen so far, in order of appearance. */
    List<Integer> linkTypes() {
        return linkTypesSeen;
    }

    @Override
    public Frame next() throws CaptureException {
        try {
            while (true) {
                long start = in.offset();
                if (!in.ensure(12)) {
                    if (in.available() == 0) {
                        return null;
                    }
                    throw cutOff(start, "block header", 12);
                }
                byte[] b = in.buf;
                int p = in.pos;
                int type = Bytes.i32(b, p, bigEndian);
                if (Bytes.i32be(b, p) == SHB) {
                    int bom = Bytes.i32be(b, p + 8);
                    if (bom == BYTE_ORDER_MAGIC) {
                        bigEndian = true;
                    } else if (Integer.reverseBytes(bom) == BYTE_ORDER_MAGIC) {
                        bigEndian = false;
                    } else {
                        throw corrupt(start + 8, String.format(java.util.Locale.ROOT,
                                "section header byte-order magic 0x%08x is neither 0x1a2b3c4d nor its reverse", bom));
                    }
                    type = SHB;
                    if (in.ensure(16)) {
                        int major = Bytes.u16(in.buf, in.pos + 12, bigEndian);
                        int minor = Bytes.u16(in.buf, in.pos + 14, bigEndian);
                        // libpcap reads 1.0 and 1.2 (which some writers put) and refuses the rest, 1.1 included
                        // (sf-pcapng.c): a section whose layout is not known is not read as if it were 1.0.
                        if (!readableVersion(major, minor)) {
                            stats.skippedRecords++;
                            long rest = in.drain();
                            stats.skippedBytes += rest;
                            throw corrupt(start + 12, "unsupported pcapng version " + major + "." + minor
                                    + " (libpcap and pcapdiag read 1.0 and 1.2); the remaining " + rest + " bytes were skipped");
                        }
                    }
                    b = in.buf;
                    p = in.pos;
                }
                long blockLen = Bytes.u32(b, p + 4, bigEndian);
                if (blockLen < 12 || blockLen % 4 != 0 || blockLen > MAX_BLOCK) {
                    stats.skippedRecords++;
                    long rest = in.drain();
                    stats.skippedBytes += rest;
                    throw corrupt(start + 4, "block length " + blockLen
                            + " is not a multiple of 4 between 12 and " + MAX_BLOCK + "; the remaining " + rest + " bytes were skipped");
                }
                int len = (int) blockLen;
                if (!in.ensure(len)) {
                    throw cutOff(start, "block of type " + Integer.toUnsignedString(type) + " (" + len + " bytes)", len);
                }
                b = in.buf;
                p = in.pos;
                long trailer = Bytes.u32(b, p + len - 4, bigEndian);
                in.pos += len;
                if (trailer != blockLen) {
                    stats.skippedRecords++;
                    problem(start, "block total length " + blockLen + " does not match its trailing copy " + trailer + "; block skipped");
                    continue;
                }
                switch (type) {
                    case SHB -> interfaces.clear();
                    case IDB -> addInterface(b, p, len, start);
                    case EPB, OBSOLETE_PB, SPB -> {
                        if (packet(type, b, p, len, start)) {
                            return frame;
                        }
                    }
                    default -> { } // Name resolution, statistics, custom and unknown blocks carry no packets.
                }
            }
        } catch (IOException e) {
            throw io(e);
        }
    }

    private void addInterface(byte[] b, int p, int len, long start) {
        if (len < 20) {
            problem(start, "interface description block of " + len + " bytes is shorter than 20; ignored");
            interfaces.add(new Iface(-1, 0, null, 1_000_000L, false, 6, 0));
            return;
        }
        int linkType = Bytes.u16(b, p + 8, bigEndian);
        int snaplen = Bytes.i32(b, p + 12, bigEndian);
        String name = null;
        boolean pow2 = false;
        int exponent = 6;
        long tsOffset = 0;
        int o = p + 16;
        int end = p + len - 4;
        while (o + 4 <= end) {
            int code = Bytes.u16(b, o, bigEndian);
            int optLen = Bytes.u16(b, o + 2, bigEndian);
            if (code == OPT_END || o + 4 + optLen > end) {
                break;
            }
            int v = o + 4;
            if (code == IF_NAME) {
                name = new String(b, v, optLen, StandardCharsets.UTF_8).replace("\0", "");
            } else if (code == IF_TSRESOL && optLen >= 1) {
                int r = b[v] & 0xff;
                pow2 = (r & 0x80) != 0;
                exponent = r & 0x7f;
            } else if (code == IF_TSOFFSET && optLen >= 8) {
                tsOffset = Bytes.i64(b, v, bigEndian);
            }
            o = v + ((optLen + 3) & ~3);
        }
        if ((!pow2 && exponent > 18) || (pow2 && exponent > 62)) {
            problem(start, "if_tsresol exponent " + exponent + " is out of range; microseconds assumed");
            pow2 = false;
            exponent = 6;
        }
        long units = pow2 ? 1L << exponent : pow10(exponent);
        interfaces.add(new Iface(linkType, snaplen, name, units, pow2, exponent, tsOffset));
        if (!linkTypesSeen.contains(linkType)) {
            linkTypesSeen.add(linkType);
        }
    }

    private boolean packet(int type, byte[] b, int p, int len, long start) {
        int ifId;
        long ts;
        long capLen;
        long origLen;
        int data;
        if (type == SPB) {
            if (interfaces.isEmpty()) {
                stats.skippedRecords++;
                problem(start, "simple packet block before any interface description block; skipped");
                return false;
            }
            if (len < 16) {
                stats.skippedRecords++;
                problem(start, "simple packet block of " + len + " bytes is shorter than its 16-byte header; skipped");
                return false;
            }
            ifId = 0;
            ts = Long.MIN_VALUE;
            origLen = Bytes.u32(b, p + 8, bigEndian);
            int snap = interfaces.get(0).snaplen();
            capLen = Math.min(origLen, len - 16L);
            if (snap > 0) {
                capLen = Math.min(capLen, snap);
            }
            data = p + 12;
        } else {
            if (len < 32) {
                stats.skippedRecords++;
                problem(start, "packet block of " + len + " bytes is shorter than its 32-byte header; skipped");
                return false;
            }
            ifId = type == EPB ? Bytes.i32(b, p + 8, bigEndian) : Bytes.u16(b, p + 8, bigEndian);
            ts = (Bytes.u32(b, p + 12, bigEndian) << 32) | Bytes.u32(b, p + 16, bigEndian);
            capLen = Bytes.u32(b, p + 20, bigEndian);
            origLen = Bytes.u32(b, p + 24, bigEndian);
            data = p + 28;
            if (capLen > len - 32L) {
                stats.skippedRecords++;
                problem(start, "captured length " + capLen + " exceeds the " + (len - 32) + " bytes of its block; skipped");
                return false;
            }
        }
        if (ifId < 0 || ifId >= interfaces.size()) {
            stats.skippedRecords++;
            problem(start, "packet names interface " + Integer.toUnsignedString(ifId) + " but the section has "
                    + interfaces.size() + "; skipped");
            return false;
        }
        Iface iface = interfaces.get(ifId);
        frame.linkType = iface.linkType();
        frame.interfaceName = iface.name();
        // A Simple Packet Block has no timestamp: give it its predecessor's, so time ordering keeps it in place.
        if (ts != Long.MIN_VALUE) {
            try {
                lastNanos = toNanos(ts, iface);
            } catch (ArithmeticException e) {
                stats.skippedRecords++;
                problem(start, "timestamp " + Long.toUnsignedString(ts) + " with if_tsoffset " + iface.offsetSeconds()
                        + " s is outside the years 1677-2262 that nanoseconds since 1970 can hold; skipped");
                return false;
            }
        }
        stats.frames++;
        frame.nanos = lastNanos;
        frame.data = b;
        frame.offset = data;
        frame.capLen = (int) capLen;
        frame.origLen = (int) Math.min(Integer.MAX_VALUE, origLen);
        frame.number = stats.frames;
        frame.fileOffset = start;
        return true;
    }

    private static boolean readableVersion(int major, int minor) {
        return major == 1 && (minor == 0 || minor == 2);
    }

    private static long toNanos(long ts, Iface iface) {
        long units = iface.unitsPerSecond();
        long seconds = Long.divideUnsigned(ts, units);
        if (seconds < 0) {
            throw new ArithmeticException("seconds beyond 2^63");
        }
        long rest = Long.remainderUnsigned(ts, units);
        long frac;
        if (!iface.powerOfTwo() && units <= 1_000_000_000L) {
            frac = rest * (1_000_000_000L / units);
        } else if (!iface.powerOfTwo()) {
            frac = rest / (units / 1_000_000_000L);
        } else {
            frac = Math.multiplyHigh(rest << (63 - iface.exponent()), 2_000_000_000L);
        }
        return Math.addExact(Math.multiplyExact(Math.addExact(seconds, iface.offsetSeconds()), 1_000_000_000L), frac);
    }

    private static long pow10(int e) {
        long v = 1;
        for (int i = 0; i < e; i++) {
            v *= 10;
        }
        return v;
    }
}
