package io.pcapdiag.live;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * What {@code -i} names: interface names and shell-style globs ({@code veth*}, {@code cali?}, {@code eth[01]}),
 * comma-separated, or {@code any} (libpcap's pseudo-device that captures on every interface). Globs are
 * matched again at every rescan so that interfaces created later (a new pod's veth) are picked up.
 */
public final class InterfacePatterns {
    /** libpcap's pseudo-device capturing on every interface of the network namespace. */
    public static final String ANY = "any";

    private final List<String> patterns;

    private InterfacePatterns(List<String> patterns) {
        this.patterns = List.copyOf(patterns);
    }

    /** Parses {@code eth0,cni0,veth*}; repeated {@code -i} options are joined by the caller. */
    public static InterfacePatterns parse(Collection<String> specs) {
        List<String> out = new ArrayList<>();
        for (String spec : specs) {
            for (String p : spec.split(",")) {
                String t = p.trim();
                if (t.isEmpty()) {
                    continue;
                }
                if (!t.matches("[A-Za-z0-9_.:@*?\\[\\]!-]+")) {
                    throw new IllegalArgumentException("-i: '" + t + "' is not an interface name or glob");
                }
                if (!out.contains(t)) {
                    out.add(t);
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("-i needs at least one interface name, glob or 'any'");
        }
        if (out.contains(ANY) && out.size() > 1) {
            throw new IllegalArgumentException("-i any already captures on every interface; do not combine it with "
                    + String.join(",", out.stream().filter(p -> !ANY.equals(p)).toList()));
        }
        return new InterfacePatterns(out);
    }

    public static InterfacePatterns parse(String spec) {
        return parse(List.of(spec));
    }

    public List<String> patterns() {
        return patterns;
    }

    /** True for exactly one plain name (or {@code any}): one capture, so {@code --write FILE} is one file. */
    public boolean single() {
        return patterns.size() == 1 && !isGlob(patterns.get(0));
    }

    /** True when some pattern is a glob: matching nothing yet is normal (no pod has started). */
    public boolean hasGlob() {
        return patterns.stream().anyMatch(InterfacePatterns::isGlob);
    }

    /** Plain names that are not among {@code available}. */
    public List<String> missing(Collection<String> available) {
        List<String> out = new ArrayList<>();
        for (String p : patterns) {
            if (!isGlob(p) && !ANY.equals(p) && !available.contains(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** The names among {@code available} that some pattern matches, sorted; {@code any} always matches itself. */
    public List<String> select(Collection<String> available) {
        TreeSet<String> out = new TreeSet<>();
        for (String p : patterns) {
            if (ANY.equals(p)) {
                out.add(ANY);
                continue;
            }
            for (String name : available) {
                if (!ANY.equals(name) && matches(p, name)) {
                    out.add(name);
                }
            }
        }
        return new ArrayList<>(out);
    }

    static boolean isGlob(String p) {
        return p.indexOf('*') >= 0 || p.indexOf('?') >= 0 || p.indexOf('[') >= 0;
    }

    /** Shell glob: {@code *} any run, {@code ?} one character, {@code [abc]}/{@code [a-z]}/{@code [!a]} a set. */
    public static boolean matches(String glob, String name) {
        return match(glob, 0, name, 0);
    }

    private static boolean match(String g, int gi, String s, int si) {
        while (gi < g.length()) {
            char c = g.charAt(gi);
            if (c == '*') {
                while (gi < g.length() && g.charAt(gi) == '*') {
                    gi++;
                }
                if (gi == g.length()) {
                    return true;
                }
                for (int k = si; k <= s.length(); k++) {
                    if (match(g, gi, s, k)) {
                        return true;
                    }
                }
                return false;
            }
            if (si >= s.length()) {
                return false;
            }
            if (c == '?') {
                gi++;
                si++;
            } else if (c == '[') {
                int end = g.indexOf(']', gi + 2);
                if (end < 0) {
                    // An unclosed bracket is a literal '['.
                    if (s.charAt(si) != '[') {
                        return false;
                    }
                    gi++;
                    si++;
                    continue;
                }
                if (!inSet(g.substring(gi + 1, end), s.charAt(si))) {
                    return false;
                }
                gi = end + 1;
                si++;
            } else {
                if (c != s.charAt(si)) {
                    return false;
                }
                gi++;
                si++;
            }
        }
        return si == s.length();
    }

    private static boolean inSet(String set, char ch) {
        boolean negate = !set.isEmpty() && (set.charAt(0) == '!' || set.charAt(0) == '^');
        int i = negate ? 1 : 0;
        boolean found = false;
        while (i < set.length()) {
            char lo = set.charAt(i);
            if (i + 2 < set.length() && set.charAt(i + 1) == '-') {
                char hi = set.charAt(i + 2);
                if (ch >= lo && ch <= hi) {
                    found = true;
                }
                i += 3;
            } else {
                if (ch == lo) {
                    found = true;
                }
                i++;
            }
        }
        return found != negate;
    }

    @Override
    public String toString() {
        return String.join(",", patterns);
    }
}
