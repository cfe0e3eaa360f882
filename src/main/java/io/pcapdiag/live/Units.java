package io.pcapdiag.live;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The units live mode's options are written in: durations ({@code 30s}) and sizes ({@code 4MiB}). */
public final class Units {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)?");
    private static final Pattern SIZE = Pattern.compile("(\\d+)(k|kb|kib|m|mb|mib|g|gb|gib)?", Pattern.CASE_INSENSITIVE);

    private Units() {
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}; a bare number is seconds. */
    public static long nanos(String option, String text, boolean positive) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " takes a duration such as 30s, 5m or 1h, not '" + text + "'");
        }
        double v = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        double scale = switch (unit) {
            case "ms" -> 1e6;
            case "m" -> 60e9;
            case "h" -> 3600e9;
            default -> 1e9;
        };
        long n = (long) (v * scale);
        if (positive && n <= 0) {
            throw new IllegalArgumentException(option + " must be more than 0");
        }
        return n;
    }

    /** {@code 4MiB}, {@code 512k}, {@code 1g} (binary units); a bare number is bytes. */
    public static long bytes(String option, String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(option + " takes a size such as 4MiB or 512KiB, not '" + text + "'");
        }
        long v = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2).toLowerCase(Locale.ROOT);
        long scale = switch (unit.isEmpty() ? ' ' : unit.charAt(0)) {
            case 'k' -> 1L << 10;
            case 'm' -> 1L << 20;
            case 'g' -> 1L << 30;
            default -> 1L;
        };
        return Math.multiplyExact(v, scale);
    }
}
