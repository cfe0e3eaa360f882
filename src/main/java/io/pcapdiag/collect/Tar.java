package io.pcapdiag.collect;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The POSIX ustar archive format (POSIX.1-1988, {@code pax}'s "ustar" format), as much of it as a bundle needs: regular
 * files and directories. Written for {@code collect -o FILE.tar.gz} and read back for {@code analyze FILE.tar.gz}; the
 * reader also takes what GNU tar and bsdtar write for a directory of plain files (directory entries, pax extended
 * headers and GNU long names, whose data it reads or skips), and nothing that is not a regular file or directory
 * (links, devices) is ever unpacked.
 */
final class Tar {
    private static final int BLOCK = 512;

    private Tar() {
    }

    /**
     * Writes {@code files} of {@code dir} under the directory {@code top}, then the two zero blocks that end an
     * archive.
     *
     * @param mtime seconds since the epoch, for every entry
     */
    static void write(Path dir, List<String> files, String top, long mtime, OutputStream out) throws IOException {
        out.write(header(top + "/", 0, '5', 0755, mtime));
        for (String f : files) {
            Path p = dir.resolve(f);
            long size = Files.size(p);
            out.write(header(top + "/" + f, size, '0', 0644, mtime));
            try (InputStream in = Files.newInputStream(p)) {
                if (in.transferTo(out) != size) {
                    throw new IOException(p + " changed while it was archived");
                }
            }
            int pad = (int) ((BLOCK - size % BLOCK) % BLOCK);
            out.write(new byte[pad]);
        }
        out.write(new byte[2 * BLOCK]);
    }

    private static byte[] header(String name, long size, char type, int mode, long mtime) {
        byte[] h = new byte[BLOCK];
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length > 100) {
            throw new IllegalArgumentException("ustar names are at most 100 bytes here: " + name);
        }
        System.arraycopy(n, 0, h, 0, n.length);
        octal(h, 100, 8, mode);
        octal(h, 108, 8, 0);
        octal(h, 116, 8, 0);
        octal(h, 124, 12, size);
        octal(h, 136, 12, mtime);
        h[156] = (byte) type;
        System.arraycopy("ustar\0".getBytes(StandardCharsets.US_ASCII), 0, h, 257, 6);
        h[263] = '0';
        h[264] = '0';
        System.arraycopy("root".getBytes(StandardCharsets.US_ASCII), 0, h, 265, 4);
        System.arraycopy("root".getBytes(StandardCharsets.US_ASCII), 0, h, 297, 4);
        // The checksum is the sum of the header's bytes with its own field as eight spaces.
        java.util.Arrays.fill(h, 148, 156, (byte) ' ');
        long sum = 0;
        for (byte b : h) {
            sum += b & 0xff;
        }
        octal(h, 148, 7, sum);
        return h;
    }

    /** {@code value} in octal, zero-padded, NUL-terminated, in {@code len} bytes at {@code off}. */
    private static void octal(byte[] h, int off, int len, long value) {
        String s = Long.toOctalString(value);
        if (s.length() > len - 1) {
            throw new IllegalArgumentException("too large for ustar: " + value);
        }
        s = "0".repeat(len - 1 - s.length()) + s;
        System.arraycopy(s.getBytes(StandardCharsets.US_ASCII), 0, h, off, len - 1);
        h[off + len - 1] = 0;
    }

    /**
     * Unpacks the regular files and directories of the archive {@code in} into {@code dir}. A name that would leave
     * {@code dir} (absolute, or with {@code ..}) and a broken header end it with an IOException saying so.
     *
     * @return the entries' common top directory, or null when they have none
     */
    static String read(InputStream in, Path dir) throws IOException {
        String top = null;
        boolean first = true;
        String longName = null;
        byte[] h = new byte[BLOCK];
        long offset = 0;
        while (true) {
            if (!fill(in, h)) {
                throw new IOException("the archive ends without its end-of-archive blocks (offset " + offset + ")");
            }
            offset += BLOCK;
            if (zero(h)) {
                break;
            }
            if (!checksumOk(h)) {
                throw new IOException("offset " + (offset - BLOCK) + ": not a tar header (checksum mismatch)");
            }
            long size = number(h, 124, 12);
            char type = (char) h[156];
            String name = longName != null ? longName : name(h);
            longName = null;
            switch (type) {
                case 'L' -> {
                    longName = new String(readData(in, size), StandardCharsets.UTF_8).replaceAll("\0+$", "");
                    offset += padded(size);
                    continue;
                }
                case 'x' -> {
                    String path = paxPath(readData(in, size));
                    offset += padded(size);
                    longName = path;
                    continue;
                }
                case 'g' -> {
                    skip(in, padded(size));
                    offset += padded(size);
                    continue;
                }
                default -> {
                }
            }
            String clean = name.startsWith("./") ? name.substring(2) : name;
            Path target = dir.resolve(clean).normalize();
            if (clean.isEmpty() || Path.of(clean).isAbsolute() || !target.startsWith(dir.normalize())
                    || target.equals(dir.normalize()) && type != '5') {
                throw new IOException("offset " + (offset - BLOCK) + ": the entry " + name + " would be unpacked outside the directory");
            }
            String head = clean.contains("/") ? clean.substring(0, clean.indexOf('/')) : (type == '5' ? clean : "");
            top = first ? head : (head.equals(top) ? top : "");
            first = false;
            if (type == '5') {
                Files.createDirectories(target);
            } else if (type == '0' || type == '\0' || type == '7') {
                Files.createDirectories(target.getParent());
                try (OutputStream out = Files.newOutputStream(target)) {
                    copy(in, out, size);
                }
                skip(in, padded(size) - size);
            } else {
                skip(in, padded(size)); // links, devices, FIFOs: never unpacked
            }
            offset += padded(size);
        }
        return top == null || top.isEmpty() ? null : top;
    }

    private static String name(byte[] h) {
        String name = field(h, 0, 100);
        String prefix = new String(h, 257, 6, StandardCharsets.US_ASCII).startsWith("ustar") ? field(h, 345, 155) : "";
        return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    /** The {@code path} record of a pax extended header ("LEN path=VALUE\n" records), or null. */
    private static String paxPath(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        int i = 0;
        while (i < text.length()) {
            int space = text.indexOf(' ', i);
            if (space < 0) {
                break;
            }
            int len;
            try {
                len = Integer.parseInt(text.substring(i, space));
            } catch (NumberFormatException e) {
                break;
            }
            if (len <= 0 || i + len > text.length()) {
                break;
            }
            String record = text.substring(space + 1, i + len - 1);
            if (record.startsWith("path=")) {
                return record.substring(5);
            }
            i += len;
        }
        return null;
    }

    private static String field(byte[] h, int off, int len) {
        int end = off;
        while (end < off + len && h[end] != 0) {
            end++;
        }
        return new String(h, off, end - off, StandardCharsets.UTF_8);
    }

    private static long number(byte[] h, int off, int len) throws IOException {
        String s = field(h, off, len).trim();
        try {
            return s.isEmpty() ? 0 : Long.parseLong(s, 8);
        } catch (NumberFormatException e) {
            throw new IOException("not a tar header: size field '" + s + "'");
        }
    }

    private static boolean checksumOk(byte[] h) throws IOException {
        long want = number(h, 148, 8);
        long sum = 0;
        for (int i = 0; i < BLOCK; i++) {
            sum += i >= 148 && i < 156 ? ' ' : h[i] & 0xff;
        }
        return sum == want;
    }

    private static boolean zero(byte[] h) {
        for (byte b : h) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    private static long padded(long size) {
        return (size + BLOCK - 1) / BLOCK * BLOCK;
    }

    private static boolean fill(InputStream in, byte[] b) throws IOException {
        int n = in.readNBytes(b, 0, b.length);
        if (n == 0) {
            return false;
        }
        if (n < b.length) {
            throw new EOFException("the archive is cut short inside a header");
        }
        return true;
    }

    private static byte[] readData(InputStream in, long size) throws IOException {
        if (size > 1 << 20) {
            throw new IOException("a tar extended header of " + size + " bytes");
        }
        byte[] data = in.readNBytes((int) size);
        if (data.length < size) {
            throw new EOFException("the archive is cut short");
        }
        skip(in, padded(size) - size);
        return data;
    }

    private static void copy(InputStream in, OutputStream out, long size) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long left = size;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                throw new EOFException("the archive is cut short inside a file");
            }
            out.write(buf, 0, n);
            left -= n;
        }
    }

    private static void skip(InputStream in, long n) throws IOException {
        in.skipNBytes(n);
    }
}
