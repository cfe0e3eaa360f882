package io.pcapdiag.node;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;

/**
 * The counters nstat shows, named as nstat names them. /proc/net/snmp and /proc/net/netstat hold pairs of lines,
 * {@code Prefix: Name1 Name2...} then {@code Prefix: value1 value2...}: a counter is PrefixName
 * ({@code TcpExtIPReversePathFilter}, {@code IpExtInNoRoutes}). /proc/net/snmp6 holds one {@code Name value} per line,
 * already prefixed ({@code Ip6InNoRoutes}).
 */
final class Nstat {
    static final String[] FILES = {"snmp", "netstat", "snmp6"};

    private Nstat() {
    }

    /** Adds the counters of /proc/net/{snmp,netstat,snmp6} to {@code out}; a file that cannot be read to {@code unreadable}. */
    static void read(Path procNet, SortedMap<String, Long> out, SortedMap<String, String> unreadable) {
        for (String name : FILES) {
            Path file = procNet.resolve(name);
            try {
                String text = ProcFiles.text(file);
                String problem = name.equals("snmp6") ? parseFlat(text, file, out) : parsePairs(text, file, out);
                if (problem != null) {
                    unreadable.put(file.toString(), problem);
                }
            } catch (IOException e) {
                unreadable.put(file.toString(), Reasons.of(file, e));
            }
        }
    }

    /** Returns null, or what is wrong with the file (its counters before the fault are kept). */
    static String parsePairs(String text, Path file, Map<String, Long> out) {
        String[] lines = text.split("\n");
        for (int n = 0; n + 1 < lines.length; n += 2) {
            String[] names = lines[n].trim().split("\\s+");
            String[] values = lines[n + 1].trim().split("\\s+");
            if (names.length != values.length || !names[0].endsWith(":") || !names[0].equals(values[0])) {
                return file + " line " + (n + 2) + ": its values do not match the names of line " + (n + 1);
            }
            String prefix = names[0].substring(0, names[0].length() - 1);
            for (int i = 1; i < names.length; i++) {
                Long v = value(values[i]);
                if (v == null) {
                    return file + " line " + (n + 2) + ": " + names[i] + " is '" + values[i] + "', not a number";
                }
                out.put(prefix + names[i], v);
            }
        }
        return null;
    }

    static String parseFlat(String text, Path file, Map<String, Long> out) {
        String[] lines = text.split("\n");
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n].trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\\s+");
            Long v = f.length == 2 ? value(f[1]) : null;
            if (v == null) {
                return file + " line " + (n + 1) + ": not NAME VALUE";
            }
            out.put(f[0], v);
        }
        return null;
    }

    /** Counters are unsigned longs; a few fields are signed ({@code TcpMaxConn} is -1). */
    private static Long value(String s) {
        try {
            return s.startsWith("-") ? Long.parseLong(s) : Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
