package io.pcapdiag.report;

import io.pcapdiag.analysis.CaptureSummary;
import io.pcapdiag.analysis.Result;
import io.pcapdiag.decode.LinkTypes;
import io.pcapdiag.rules.Explain;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Severity;
import io.pcapdiag.track.Outcome;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** The default report: a summary line per capture, then one block per finding, most severe first. */
public final class TextReport {
    public static final int DEFAULT_MAX_FINDINGS = 50;
    private static final int WIDTH = 100;
    private final boolean color;
    private final int maxFindings;

    public TextReport(boolean color, int maxFindings) {
        this.color = color;
        this.maxFindings = maxFindings;
    }

    public void write(Result r, PrintWriter out) {
        for (CaptureSummary s : r.captures()) {
            out.println(captureLine(s));
        }
        Result.TrackerStats t = r.tracker();
        if (t.evicted() > 0) {
            out.println("tracker: " + t.evicted() + " attempts evicted (table full at " + t.maxOpen()
                    + " open attempts; raise --max-open); evicted attempts without an answer were not judged");
        }
        List<Finding> findings = r.findings();
        int shown = Math.min(findings.size(), maxFindings);
        for (int i = 0; i < shown; i++) {
            out.println();
            finding(findings.get(i), out);
        }
        out.println();
        if (shown < findings.size()) {
            out.println((findings.size() - shown) + " more findings not shown (raise --max-findings " + maxFindings
                    + " to see them)");
        }
        r.overflow().forEach((p, n) -> out.println(n + " " + p.id() + " attempts were counted but not grouped:"
                + " the bound on distinct findings was reached"));
        out.println(totalLine(r));
        out.flush();
    }

    static String captureLine(CaptureSummary s) {
        StringBuilder sb = new StringBuilder();
        sb.append(s.capture().name()).append(": ");
        if (!s.opened()) {
            return sb.append("not analysed (").append(s.errors().isEmpty() ? "unreadable" : "see the error above").append(')').toString();
        }
        sb.append(s.packets()).append(s.packets() == 1 ? " packet" : " packets");
        if (!s.linkTypes().isEmpty()) {
            StringJoiner j = new StringJoiner(", ", " (", ")");
            s.linkTypes().forEach(l -> j.add(LinkTypes.name(l)));
            sb.append(j);
        }
        sb.append(", ").append(s.attempts()).append(s.attempts() == 1 ? " attempt" : " attempts");
        StringJoiner oj = new StringJoiner(", ", ": ", "");
        oj.setEmptyValue("");
        for (Map.Entry<Outcome, Long> e : s.outcomes().entrySet()) {
            if (e.getValue() > 0) {
                oj.add(e.getValue() + " " + e.getKey().id());
            }
        }
        sb.append(oj);
        sb.append("; ").append(s.truncated()).append(" truncated, ").append(s.malformed()).append(" malformed, ")
                .append(s.skippedRecords()).append(" skipped records");
        if (!s.errors().isEmpty()) {
            sb.append(", ").append(s.errors().size()).append(s.errors().size() == 1 ? " read error" : " read errors");
        }
        return sb.toString();
    }

    private void finding(Finding f, PrintWriter out) {
        String sev = f.severity() == Severity.ERROR ? paint("ERROR", "1;31") : paint("WARNING", "1;33");
        out.println(sev + " " + paint(f.pattern().id(), "1") + ": " + f.pattern().title());
        StringBuilder who = new StringBuilder("  ").append(f.client()).append(" -> ").append(f.target());
        if (f.responder() != null) {
            who.append(", answered by ").append(f.responder());
        }
        who.append(", ").append(f.attempts()).append(f.attempts() == 1 ? " attempt" : " attempts");
        if (f.attempts() > 1) {
            who.append(" between ").append(Evidence.time(f.firstNanos())).append(" and ").append(Evidence.time(f.lastNanos()));
        }
        out.println(who);
        Explanation x = Explain.of(f);
        wrap(out, "  What happened: ", "    ", x.happened());
        out.println("  Evidence:");
        for (Evidence.Packet p : Evidence.of(f)) {
            String where = p.capture() + " #" + p.frame() + (p.iface() != null ? " " + p.iface() : "");
            out.println(String.format(java.util.Locale.ROOT, "    %-10s %s  %s", p.role(), where, p.time()));
            out.println("               " + p.summary());
        }
        if (f.retransmissions() > 0) {
            out.println("    (SYN retransmitted " + f.retransmissions() + (f.retransmissions() == 1 ? " time" : " times")
                    + (f.attempts() > 1 ? " over all attempts)" : ")"));
        }
        for (String o : x.observations()) {
            wrap(out, "  Seen: ", "    ", o);
        }
        out.println("  Fixes:");
        int n = 1;
        for (Explanation.Remedy rem : x.remedies()) {
            wrap(out, "    " + n++ + ". ", "       ", rem.fix());
            if (rem.tradeoff() != null) {
                wrap(out, "       trade-off: ", "         ", rem.tradeoff());
            }
        }
    }

    static String totalLine(Result r) {
        long errors = r.findings().stream().filter(f -> f.severity() == Severity.ERROR).count();
        long warnings = r.findings().size() - errors;
        long attempts = r.outcomes().values().stream().mapToLong(Long::longValue).sum();
        if (r.findings().isEmpty()) {
            return "no findings: " + attempts + (attempts == 1 ? " connection attempt" : " connection attempts")
                    + " analysed, none shows a failure";
        }
        return r.findings().size() + (r.findings().size() == 1 ? " finding" : " findings") + " (" + errors
                + (errors == 1 ? " error, " : " errors, ") + warnings + (warnings == 1 ? " warning" : " warnings")
                + ") over " + attempts + (attempts == 1 ? " connection attempt" : " connection attempts");
    }

    private String paint(String s, String ansi) {
        return color ? "\u001b[" + ansi + "m" + s + "\u001b[0m" : s;
    }

    /** Word-wraps {@code text} to {@link #WIDTH} columns: first line after {@code lead}, the rest after {@code indent}. */
    static void wrap(PrintWriter out, String lead, String indent, String text) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder(lead);
        int fresh = lead.length();
        for (String word : text.split(" ")) {
            if (line.length() > fresh && line.length() + 1 + word.length() > WIDTH) {
                lines.add(line.toString());
                line = new StringBuilder(indent);
                fresh = indent.length();
            }
            if (line.length() > fresh) {
                line.append(' ');
            }
            line.append(word);
        }
        lines.add(line.toString());
        lines.forEach(out::println);
    }
}
