package io.pcapdiag.node;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads of /proc and sysfs files. They report a size of 0 or 4096 whatever they hold, so they are read to the
 * end rather than by their size.
 */
final class ProcFiles {
    private ProcFiles() {
    }

    static String text(Path p) throws IOException {
        return new String(bytes(p), StandardCharsets.UTF_8);
    }

    /** The first line, trimmed: what a sysctl or a sysfs attribute holds. */
    static String value(Path p) throws IOException {
        String t = text(p);
        int nl = t.indexOf('\n');
        return (nl >= 0 ? t.substring(0, nl) : t).trim();
    }

    static byte[] bytes(Path p) throws IOException {
        try (InputStream in = Files.newInputStream(p)) {
            return in.readAllBytes();
        }
    }

    /** A file's first line as a fact. */
    static OrUnknown<String> fact(Path p) {
        try {
            return OrUnknown.known(value(p));
        } catch (IOException e) {
            return OrUnknown.unknown(Reasons.of(p, e));
        }
    }

    /** A file holding one decimal or 0x-hexadecimal integer (sysfs writes brport/port_no as {@code 0x1}). */
    static OrUnknown<Long> number(Path p) {
        OrUnknown<String> f = fact(p);
        if (!f.isKnown()) {
            return f.asUnknown();
        }
        try {
            String v = f.value();
            return OrUnknown.known(v.startsWith("0x") ? Long.parseLong(v.substring(2), 16) : Long.parseLong(v));
        } catch (NumberFormatException e) {
            return OrUnknown.unknown(p + " holds '" + f.value() + "', not a number");
        }
    }

    static OrUnknown<Integer> integer(Path p) {
        return number(p).map(Long::intValue);
    }
}
