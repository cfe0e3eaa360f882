package io.pcapdiag.cli;

import io.pcapdiag.report.Format;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code pcapdiag analyze ...} read without picocli when every argument has a plain form: picocli builds its model of
 * a command by reflection on every run, about 45 ms of a run that takes 0.35 s on the bench trace and 0.12 s on a lab
 * capture (PERFORMANCE.md). Anything this does not take as it is (help, version, {@code @files}, {@code --},
 * clustered or attached short options, an option given twice, a value that is empty, starts with '-' or is not one
 * of its enum's lower-case names, a number that is not plain digits, an unknown option, no capture) makes
 * {@link #parse} return null, and picocli reads the command line as before: its errors and help stay the only ones.
 * The annotations on {@link AnalyzeCommand}, {@link CommonOptions} and {@link AnalysisOptions} remain the definition
 * of the options; {@code AnalyzeArgsTest} holds this reader to the fields picocli sets, over generated command lines.
 */
final class AnalyzeArgs {
    private AnalyzeArgs() {
    }

    /** The command {@code args} (starting with {@code analyze}) describe, its fields set as picocli sets them; or null. */
    static AnalyzeCommand parse(String[] args) {
        if (args.length < 2 || !"analyze".equals(args[0])) {
            return null;
        }
        AnalyzeCommand c = new AnalyzeCommand();
        c.common = new CommonOptions();
        c.analysis = new AnalysisOptions();
        // The annotations' defaults.
        c.common.color = CommonOptions.ColorMode.auto;
        c.analysis.failOn = "none";
        c.analysis.listAttempts = 0;
        c.format = Format.text;
        c.reader = "builtin";
        List<String> files = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (a.isEmpty() || a.charAt(0) == '@') {
                return null;
            }
            if ("-".equals(a) || a.charAt(0) != '-') {
                files.add(a);
                continue;
            }
            if ("-v".equals(a) || "--verbose".equals(a)) {
                if (!seen.add("--verbose")) {
                    return null;
                }
                c.common.verbose = true;
                continue;
            }
            String name;
            String value;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 2) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
            } else {
                if (i + 1 >= args.length) {
                    return null;
                }
                name = a;
                value = args[++i];
            }
            if ("-f".equals(name)) {
                if (eq >= 0) {
                    return null;
                }
                name = "--format";
            }
            if (value.isEmpty() || value.charAt(0) == '-' || value.charAt(0) == '@') {
                return null;
            }
            boolean repeatable = name.equals("--lb-ip") || name.equals("--node-facts") || name.equals("--label");
            if (!repeatable && !seen.add(name)) {
                return null;
            }
            switch (name) {
                case "--format" -> {
                    Format f = lowerCaseName(Format.values(), value);
                    if (f == null) {
                        return null;
                    }
                    c.format = f;
                }
                case "--color" -> {
                    CommonOptions.ColorMode m = lowerCaseName(CommonOptions.ColorMode.values(), value);
                    if (m == null) {
                        return null;
                    }
                    c.common.color = m;
                }
                case "--lb-ip" -> {
                    for (String ip : value.split(",", -1)) {
                        if (ip.isEmpty() || ip.indexOf('"') >= 0 || ip.indexOf('\'') >= 0) {
                            return null;
                        }
                        c.analysis.lbIps.add(ip);
                    }
                }
                case "--cluster" -> {
                    c.analysis.cluster = path(value);
                    if (c.analysis.cluster == null) {
                        return null;
                    }
                }
                case "--node-facts" -> {
                    Path p = path(value);
                    if (p == null) {
                        return null;
                    }
                    c.analysis.nodeFacts.add(p);
                }
                case "--node" -> c.analysis.node = value;
                case "--fail-on" -> c.analysis.failOn = value;
                case "--max-open" -> {
                    Integer n = digits(value);
                    if (n == null) {
                        return null;
                    }
                    c.analysis.maxOpen = n;
                }
                case "--attempts" -> {
                    Integer n = digits(value);
                    if (n == null) {
                        return null;
                    }
                    c.analysis.listAttempts = n;
                }
                case "--max-findings" -> {
                    Integer n = digits(value);
                    if (n == null) {
                        return null;
                    }
                    c.analysis.maxFindings = n;
                }
                case "--label" -> c.labels.add(value);
                case "--evidence" -> {
                    c.evidence = path(value);
                    if (c.evidence == null) {
                        return null;
                    }
                }
                case "--reader" -> c.reader = value;
                default -> {
                    return null;
                }
            }
        }
        if (files.isEmpty()) {
            return null;
        }
        c.files = files;
        return c;
    }

    /** The constant named {@code value} exactly, or null (picocli's case-insensitive matches are left to picocli). */
    private static <E extends Enum<E>> E lowerCaseName(E[] values, String value) {
        for (E e : values) {
            if (e.name().equals(value)) {
                return e;
            }
        }
        return null;
    }

    /** The path {@code value} names, or null where it names none (picocli then says why). */
    private static Path path(String value) {
        try {
            return Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /** Up to nine digits as an int, or null (signs, other radixes and large numbers are left to picocli). */
    private static Integer digits(String value) {
        if (value.length() > 9) {
            return null;
        }
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch < '0' || ch > '9') {
                return null;
            }
        }
        return Integer.valueOf(value);
    }
}
