package io.pcapdiag.capture;

import java.io.IOException;

/**
 * Classic libpcap files: microsecond (0xa1b2c3d4) and nanosecond (0xa1b23c4d) timestamps in either
 * byte order, and Kuznetzov's patched format (0xa1b2cd34, 24-byte records). Format: the pcap file
 * format draft (draft-ietf-opsawg-pcap), "File Header" and "Packet Record".
 */
final class PcapReader extends AbstractFileSource {
    static final int MAGIC_US = 0xa1b2c3d4;
    static final int MAGIC_NS = 0xa1b23c4d;
    static final int MAGIC_KUZNETZOV = 0xa1b2cd34;
    private static final int FILE_HEADER = 24;
    /** How far to search for the next plausible record after a corrupt record header. */
    private static final long RESYNC_WINDOW = 16L << 20;

    private final boolean bigEndian;
    private final boolean nanos;
    private final int recordHeader;
    private final int snaplen;
    private final int linkType;
    private final int maxRecord;
    private long lastSeconds = -1;
    private boolean snaplenWarned;
    private boolean fractionWarned;
    /** Records of no bytes and original length 0 in a row, and where the run began. */
    private int emptyRun;
    private long emptyRunStart;
    static final int MAX_EMPTY_RUN = 1024;

    PcapReader(Capture capture, ByteInput in) throws CaptureException {
        super(capture, in);
        try {
            if (!in.ensure(FILE_HEADER)) {
                throw corrupt(0, "truncated pcap file header: " + in.available() + " of " + FILE_HEADER + " bytes");
            }
        } catch (IOException e) {
            throw io(e);
        }
        byte[] b = in.buf;
        int p = in.pos;
        int be = Bytes.i32be(b, p);
        int magic = be == MAGIC_US || be == MAGIC_NS || be == MAGIC_KUZNETZOV ? be : Integer.reverseBytes(be);
        bigEndian = magic == be;
        nanos = magic == MAGIC_NS;
        recordHeader = magic == MAGIC_KUZNETZOV ? 24 : 16;
        int major = Bytes.u16(b, p + 4, bigEndian);
        int minor = Bytes.u16(b, p + 6, bigEndian);
        if (major != 2) {
            // libpcap refuses these too: 1.x is pre-1990s and lays records out differently.
            throw corrupt(4, "unsupported pcap version " + major + "." + minor + " (expected 2.x)");
        }
        int headerSnaplen = Bytes.i32(b, p + 16, bigEndian);
        // libpcap (pcap_adjust_snapshot): a snaplen of 0 or beyond the link type's maximum means that
        // maximum. Trusting a larger one would let a corrupt record length near 2^31 through.
        snaplen = headerSnaplen > 0 && headerSnaplen <= MAX_RECORD ? headerSnaplen : MAX_RECORD;
        // Upper bits of the link-type field carry FCS information, not the link type.
        linkType = Bytes.i32(b, p + 20, bigEndian) & 0xffff;
        maxRecord = MAX_RECORD;
        in.pos += FILE_HEADER;
        frame.linkType = linkType;
    }

    int linkType() {
        return linkType;
    }

    @Override
    public Frame next() throws CaptureException {
        return next(FrameFilter.NONE);
    }

    /** The read loop: each record is checked, made the frame, and offered to {@code filter} while it lies in the window. */
    @Override
    public Frame next(FrameFilter filter) throws CaptureException {
        try {
            while (true) {
                long start = in.offset();
                if (in.available() < recordHeader && !in.ensure(recordHeader)) {
                    if (in.available() == 0) {
                        return null;
                    }
                    throw cutOff(start, "record header", recordHeader);
                }
                byte[] b = in.buf;
                int p = in.pos;
                long capLen = Bytes.u32(b, p + 8, bigEndian);
                if (capLen > maxRecord) {
                    resync(start, "record length " + capLen + " exceeds the maximum " + maxRecord);
                    continue;
                }
                int len = (int) capLen;
                if (len == 0) {
                    emptyRecord(start, Bytes.u32(b, p + 12, bigEndian));
                } else {
                    emptyRun = 0;
                }
                if (len > snaplen && !followedByARecord(len)) {
                    resync(start, "record length " + len + " exceeds the file's snaplen " + snaplen
                            + " and no plausible record header follows it");
                    continue;
                }
                if (in.available() < recordHeader + len && !in.ensure(recordHeader + len)) {
                    throw cutOff(start, "record of " + len + " bytes", recordHeader + len);
                }
                b = in.buf;
                p = in.pos;
                in.pos += recordHeader + len;
                stats.frames++;
                if (len > snaplen) {
                    len = overSnaplen(start, len);
                }
                long sec = Bytes.u32(b, p, bigEndian);
                long frac = Bytes.u32(b, p + 4, bigEndian);
                lastSeconds = sec;
                if (frac >= (nanos ? 1_000_000_000L : 1_000_000L)) {
                    fractionProblem(start, frac);
                }
                frame.nanos = sec * 1_000_000_000L + (nanos ? frac : frac * 1000L);
                frame.data = b;
                frame.offset = p + recordHeader;
                frame.capLen = len;
                frame.origLen = (int) Math.min(Integer.MAX_VALUE, Bytes.u32(b, p + 12, bigEndian));
                frame.number = stats.frames;
                frame.fileOffset = start;
                if (!filter.take(frame)) {
                    return frame;
                }
            }
        } catch (IOException e) {
            throw io(e);
        }
    }

    /**
     * A record of no bytes whose original length is 0 too: no link delivers such a packet. A run of them is zeros (a
     * zeroed disk block, a decompression bomb: 4 GiB of zeros are 268 M such records), not a capture: said at the
     * run's start, and the rest of the input is not read.
     */
    private void emptyRecord(long start, long origLen) throws CaptureException {
        if (origLen != 0) {
            emptyRun = 0;
            return;
        }
        if (emptyRun++ == 0) {
            emptyRunStart = start;
        }
        if (emptyRun == MAX_EMPTY_RUN) {
            stats.skippedRecords++; // the earlier ones of the run were handed out as (empty) frames; this one is not
            throw corrupt(emptyRunStart, MAX_EMPTY_RUN + " records in a row from here have no bytes and an original"
                    + " length of 0: not packet records (zeros, or a decompression bomb); the rest of the input is not read");
        }
    }

    /** Said once per file: libpcap passes such a field on as it is, and so does this reader (as seconds beyond). */
    private void fractionProblem(long start, long frac) {
        if (!fractionWarned) {
            fractionWarned = true;
            problem(start, "the " + (nanos ? "nanoseconds" : "microseconds") + " field " + frac + " is a second or more"
                    + " (a corrupt timestamp); read as " + (nanos ? frac / 1e9 : frac / 1e6) + " s past the record's second,"
                    + " as libpcap passes it on");
        }
    }

    /**
     * A record longer than the file's snaplen is corrupt unless a plausible record header (or the end of the file)
     * follows it: a length between the snaplen and the maximum would otherwise swallow the records after it.
     */
    private boolean followedByARecord(int len) throws IOException {
        int next = recordHeader + len;
        if (!in.ensure(next + recordHeader)) {
            return in.available() == next;
        }
        return headerPlausible(next);
    }

    /**
     * A record longer than the snaplen with a valid record after it (some writers put a smaller snaplen in the header
     * than they capture with): libpcap delivers at most snaplen bytes of it; do the same so that both readers agree.
     */
    private int overSnaplen(long start, int len) {
        if (!snaplenWarned) {
            snaplenWarned = true;
            problem(start, "record length " + len + " exceeds the file's snaplen " + snaplen
                    + "; truncated to the snaplen as libpcap does");
        }
        return snaplen;
    }

    /**
     * A record header with impossible lengths: libpcap stops there, losing the rest of the file. Look
     * for the next position where two consecutive record headers are plausible and go on from there.
     */
    private void resync(long badAt, String why) throws IOException, CaptureException {
        stats.skippedRecords++;
        in.pos += 1;
        long scanned = 1;
        while (scanned < RESYNC_WINDOW) {
            if (!in.ensure(recordHeader)) {
                break;
            }
            if (plausibleAt(0)) {
                long at = in.offset();
                stats.skippedBytes += at - badAt;
                problem(badAt, why + "; resynchronised at offset " + at + " after skipping " + (at - badAt) + " bytes");
                return;
            }
            in.pos++;
            scanned++;
        }
        long rest = in.drain();
        stats.skippedBytes += scanned + rest;
        throw corrupt(badAt, why + "; no plausible record follows, the remaining " + (scanned + rest) + " bytes were skipped");
    }

    /** True when a record header at pos+rel looks valid and is followed by another valid one or by the end. */
    private boolean plausibleAt(int rel) throws IOException {
        if (!headerPlausible(rel)) {
            return false;
        }
        int len = (int) Bytes.u32(in.buf, in.pos + rel + 8, bigEndian);
        int nextRel = rel + recordHeader + len;
        if (!in.ensure(nextRel + recordHeader)) {
            return in.available() == nextRel;
        }
        return headerPlausible(nextRel);
    }

    private boolean headerPlausible(int rel) {
        byte[] b = in.buf;
        int p = in.pos + rel;
        long sec = Bytes.u32(b, p, bigEndian);
        long frac = Bytes.u32(b, p + 4, bigEndian);
        long capLen = Bytes.u32(b, p + 8, bigEndian);
        long origLen = Bytes.u32(b, p + 12, bigEndian);
        long limit = snaplen > 0 ? Math.min(snaplen, maxRecord) : maxRecord;
        boolean timeOk = lastSeconds < 0 || Math.abs(sec - lastSeconds) <= 86_400;
        return timeOk && frac < (nanos ? 1_000_000_000L : 1_000_000L) && capLen > 0 && capLen <= limit
                && origLen >= capLen && origLen <= Math.max(MAX_RECORD, 65_535 + 64);
    }
}
