package io.pcapdiag.node;

import java.time.Instant;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One reading of the node's counters, cheap enough to take every minute: the conntrack table's size, the
 * per-CPU conntrack statistics summed, and the nstat counters.
 *
 * <p>Counter names are the lookup keys of {@link #get}: nstat's ({@code TcpExtIPReversePathFilter},
 * {@code IpExtInNoRoutes}, {@code Ip6InNoRoutes}: the prefix of the /proc/net/snmp or /proc/net/netstat line and the
 * field, as nstat prints them; /proc/net/snmp6 names are taken as they are), {@code nf_conntrack.COLUMN} for a
 * column of /proc/net/stat/nf_conntrack ({@code nf_conntrack.insert_failed}), and {@code nf_conntrack_count}.
 *
 * @param conntrackStat columns of /proc/net/stat/nf_conntrack summed over CPUs, except {@code entries}, which
 *                      the kernel prints on every CPU's line as the namespace's total (ct_cpu_seq_show)
 * @param nstat         every counter of /proc/net/snmp, /proc/net/netstat and /proc/net/snmp6 that could be read
 * @param unreadable    those of the three files that could not be read, with the reason
 */
public record Counters(Instant readAt, OrUnknown<Long> conntrackCount, OrUnknown<SortedMap<String, Long>> conntrackStat,
                       SortedMap<String, Long> nstat, SortedMap<String, String> unreadable) {
    public static final String CONNTRACK_COUNT = "nf_conntrack_count";
    public static final String CONNTRACK_STAT_PREFIX = "nf_conntrack.";

    public Counters {
        conntrackStat = conntrackStat.map(m -> Collections.unmodifiableSortedMap(new TreeMap<>(m)));
        nstat = Collections.unmodifiableSortedMap(new TreeMap<>(nstat));
        unreadable = Collections.unmodifiableSortedMap(new TreeMap<>(unreadable));
    }

    /** A counter by name (see the class comment), or unknown with the reason. */
    public OrUnknown<Long> get(String name) {
        if (name.equals(CONNTRACK_COUNT)) {
            return conntrackCount;
        }
        if (name.startsWith(CONNTRACK_STAT_PREFIX)) {
            if (!conntrackStat.isKnown()) {
                return conntrackStat.asUnknown();
            }
            String column = name.substring(CONNTRACK_STAT_PREFIX.length());
            Long v = conntrackStat.value().get(column);
            return v != null ? OrUnknown.known(v) : OrUnknown.unknown("/proc/net/stat/nf_conntrack has no column " + column);
        }
        Long v = nstat.get(name);
        if (v != null) {
            return OrUnknown.known(v);
        }
        StringBuilder why = new StringBuilder("no nstat counter " + name);
        unreadable.forEach((file, reason) -> why.append("; ").append(reason));
        return OrUnknown.unknown(why.toString());
    }

    /** What changed from {@code earlier} to this reading. */
    public Deltas since(Counters earlier) {
        return new Deltas(earlier, this);
    }

    /**
     * The change of every counter between two readings. Kernel counters are unsigned and wrap; the difference of
     * two readings in two's complement is right across one wrap. {@code nf_conntrack_count} and
     * {@code nf_conntrack.entries} are gauges: their delta is the change in the table's size.
     */
    public record Deltas(Counters start, Counters end) {
        public double seconds() {
            return (end.readAt.toEpochMilli() - start.readAt.toEpochMilli()) / 1000.0;
        }

        /** The change of one counter, unknown when either reading lacks it. */
        public OrUnknown<Long> get(String name) {
            OrUnknown<Long> a = start.get(name);
            if (!a.isKnown()) {
                return a;
            }
            OrUnknown<Long> b = end.get(name);
            return b.isKnown() ? OrUnknown.known(b.value() - a.value()) : b;
        }

        /** Every counter known in both readings, by name, with its change. */
        public SortedMap<String, Long> all() {
            SortedMap<String, Long> out = new TreeMap<>();
            for (String name : start.names()) {
                OrUnknown<Long> d = get(name);
                if (d.isKnown()) {
                    out.put(name, d.value());
                }
            }
            return out;
        }
    }

    /** Every counter name this reading has. */
    public SortedMap<String, Long> all() {
        SortedMap<String, Long> out = new TreeMap<>(nstat);
        if (conntrackCount.isKnown()) {
            out.put(CONNTRACK_COUNT, conntrackCount.value());
        }
        if (conntrackStat.isKnown()) {
            conntrackStat.value().forEach((k, v) -> out.put(CONNTRACK_STAT_PREFIX + k, v));
        }
        return out;
    }

    private Iterable<String> names() {
        return all().keySet();
    }
}
