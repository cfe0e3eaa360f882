package io.pcapdiag.node;

import java.io.IOException;
import java.nio.file.Path;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * /proc/net/stat/nf_conntrack: a header naming the columns, then one line of 8-digit hex values per CPU
 * (ct_cpu_seq_show). Columns are summed over CPUs, except {@code entries}, which every line repeats as the
 * namespace's table size. Column names come from the header, so columns a newer kernel adds are kept.
 */
final class ConntrackStat {
    private ConntrackStat() {
    }

    static OrUnknown<SortedMap<String, Long>> read(Path file) {
        try {
            return parse(ProcFiles.text(file), file);
        } catch (IOException e) {
            String why = Reasons.of(file, e);
            return OrUnknown.unknown(e instanceof java.nio.file.NoSuchFileException ? why + " (nf_conntrack is not loaded)" : why);
        }
    }

    static OrUnknown<SortedMap<String, Long>> parse(String text, Path file) {
        String[] lines = text.split("\n");
        if (lines.length == 0 || lines[0].isBlank()) {
            return OrUnknown.unknown(file + " is empty");
        }
        String[] names = lines[0].trim().split("\\s+");
        SortedMap<String, Long> sums = new TreeMap<>();
        for (String name : names) {
            sums.put(name, 0L);
        }
        int cpus = 0;
        for (int n = 1; n < lines.length; n++) {
            String line = lines[n].trim();
            if (line.isEmpty()) {
                continue;
            }
            String[] values = line.split("\\s+");
            if (values.length != names.length) {
                return OrUnknown.unknown(file + " line " + (n + 1) + ": " + values.length + " values for " + names.length + " columns");
            }
            for (int i = 0; i < names.length; i++) {
                long v;
                try {
                    v = Long.parseUnsignedLong(values[i], 16);
                } catch (NumberFormatException e) {
                    return OrUnknown.unknown(file + " line " + (n + 1) + ": " + names[i] + " is '" + values[i] + "', not hexadecimal");
                }
                sums.put(names[i], names[i].equals("entries") && cpus > 0 ? sums.get(names[i]) : sums.get(names[i]) + v);
            }
            cpus++;
        }
        if (cpus == 0) {
            return OrUnknown.unknown(file + " has no line of values");
        }
        return OrUnknown.known(sums);
    }
}
