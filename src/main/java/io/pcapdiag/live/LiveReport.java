package io.pcapdiag.live;

import io.pcapdiag.analysis.Result;
import io.pcapdiag.report.Evidence;
import io.pcapdiag.report.JsonReport;
import io.pcapdiag.report.JsonLines;
import io.pcapdiag.report.TextReport;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Severity;
import io.pcapdiag.track.Outcome;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What live mode prints on stdout: a line per finding as soon as it is known, a periodic summary, and the
 * final report. As text for people, or as JSON Lines ({@code --format jsonl}) for log pipelines, where
 * every line is one object whose {@code event} says what it is.
 */
public final class LiveReport {
    /** Output formats of live mode. */
    public enum Format { text, jsonl }

    private final PrintWriter out;
    private final Format format;
    private final boolean color;
    private final int maxFindings;
    private final String node;

    /**
     * @param maxFindings findings listed in full in the final report
     * @param node        the node name (NODE_NAME), added to JSON lines; null outside a cluster
     */
    public LiveReport(PrintWriter out, Format format, boolean color, int maxFindings, String node) {
        this.out = out;
        this.format = format;
        this.color = color;
        this.maxFindings = maxFindings;
        this.node = node == null || node.isBlank() ? null : node;
    }

    /** A finding that appeared, or whose pattern changed from {@code previous} (null when new). */
    void finding(Finding f, Pattern previous, long nowNanos) {
        if (format == Format.jsonl) {
            Map<String, Object> head = head(nowNanos);
            if (previous != null) {
                head.put("previous_pattern", previous.id());
            }
            out.println(JsonLines.finding("finding", head, f));
        } else {
            out.println(findingLine(f, previous));
        }
        out.flush();
    }

    static String findingLine(Finding f, Pattern previous) {
        StringBuilder sb = new StringBuilder(160);
        sb.append(Evidence.time(f.firstNanos())).append(' ')
                .append(f.severity() == Severity.ERROR ? "ERROR  " : "WARNING").append(' ')
                .append(f.pattern().id()).append(' ').append(f.client()).append(" -> ").append(f.target());
        if (f.responder() != null) {
            sb.append(" answered by ").append(f.responder());
        }
        if (f.attempts() > 1) {
            sb.append(" (").append(f.attempts()).append(" attempts)");
        }
        Evidence.Packet first = Evidence.of(f).get(0);
        sb.append(" [").append(first.capture()).append(" #").append(first.frame());
        if (first.iface() != null) {
            sb.append(' ').append(first.iface());
        }
        sb.append("]: ").append(f.pattern().title());
        if (previous != null) {
            sb.append(" (was ").append(previous.id()).append(')');
        }
        return sb.toString();
    }

    /** The periodic summary. */
    void summary(long nowNanos, long sinceNanos, List<InterfaceStatus> interfaces, Map<Outcome, Long> outcomes,
                 List<Finding> findings) {
        if (format == Format.jsonl) {
            Map<String, Object> head = head(nowNanos);
            head.put("since", Evidence.time(sinceNanos));
            head.put("attempts", JsonReport.outcomes(outcomes));
            head.put("findings", patternCounts(findings));
            head.put("interfaces", interfaces);
            out.println(JsonLines.line("summary", head, null));
            out.flush();
            return;
        }
        long packets = interfaces.stream().mapToLong(InterfaceStatus::packets).sum();
        long attempts = outcomes.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder sb = new StringBuilder("summary at ").append(Evidence.time(nowNanos)).append(": ")
                .append(interfaces.stream().filter(i -> i.gone() == null).count()).append(" interfaces capturing, ")
                .append(packets).append(" packets, ").append(attempts).append(" attempts");
        StringJoiner oj = new StringJoiner(", ", " (", ")");
        oj.setEmptyValue("");
        outcomes.forEach((o, n) -> {
            if (n > 0) {
                oj.add(n + " " + o.id());
            }
        });
        sb.append(oj).append(", ").append(findings.size()).append(findings.size() == 1 ? " finding" : " findings");
        StringJoiner fj = new StringJoiner(", ", ": ", "");
        fj.setEmptyValue("");
        patternCounts(findings).forEach((p, n) -> fj.add(n + " " + p));
        sb.append(fj);
        out.println(sb);
        for (InterfaceStatus i : interfaces) {
            out.println("  " + interfaceLine(i));
        }
        dropWarning(interfaces);
        out.flush();
    }

    /** The final report: per-interface statistics, then the offline report of everything seen. */
    void report(Result r, List<InterfaceStatus> interfaces, long startNanos, long endNanos) {
        if (format == Format.jsonl) {
            Map<String, Object> head = head(endNanos);
            head.put("started", Evidence.time(startNanos));
            head.put("interfaces", interfaces);
            out.println(JsonLines.report("report", head, r, maxFindings));
            out.flush();
            return;
        }
        long packets = interfaces.stream().mapToLong(InterfaceStatus::packets).sum();
        out.println("live capture from " + Evidence.time(startNanos) + " to " + Evidence.time(endNanos) + ": "
                + packets + (packets == 1 ? " packet" : " packets") + " on " + interfaces.size()
                + (interfaces.size() == 1 ? " interface" : " interfaces"));
        for (InterfaceStatus i : interfaces) {
            out.println("  " + interfaceLine(i));
        }
        dropWarning(interfaces);
        new TextReport(color, maxFindings).write(r, out);
        out.flush();
    }

    static String interfaceLine(InterfaceStatus i) {
        StringBuilder sb = new StringBuilder(i.capture()).append(": ").append(i.packets())
                .append(i.packets() == 1 ? " packet" : " packets").append(" (").append(i.linkType()).append("), ")
                .append(i.truncated()).append(" truncated, ").append(i.malformed()).append(" malformed; libpcap: ")
                .append(i.received()).append(" received, ").append(i.droppedByKernel()).append(" dropped by the kernel, ")
                .append(i.droppedByInterface()).append(" dropped by the interface");
        if (i.file() != null) {
            sb.append("; written to ").append(i.file());
        }
        if (i.gone() != null) {
            sb.append("; gone: ").append(i.gone());
        }
        return sb.toString();
    }

    private void dropWarning(List<InterfaceStatus> interfaces) {
        long kernel = interfaces.stream().mapToLong(InterfaceStatus::droppedByKernel).sum();
        long iface = interfaces.stream().mapToLong(InterfaceStatus::droppedByInterface).sum();
        if (kernel > 0) {
            out.println("WARNING: the kernel dropped " + kernel + " packets that passed the filter (the capture buffer was"
                    + " full): the picture is incomplete; raise --buffer-size or capture fewer interfaces");
        }
        if (iface > 0) {
            out.println("WARNING: the interfaces dropped " + iface + " packets: the picture may be incomplete");
        }
    }

    private Map<String, Object> head(long nowNanos) {
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("time", Evidence.time(nowNanos));
        if (node != null) {
            head.put("node", node);
        }
        return head;
    }

    /** Findings per pattern id, in the pattern table's order, patterns without findings left out. */
    static Map<String, Long> patternCounts(List<Finding> findings) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Pattern p : Pattern.values()) {
            long n = findings.stream().filter(f -> f.pattern() == p).count();
            if (n > 0) {
                m.put(p.id(), n);
            }
        }
        return m;
    }
}
