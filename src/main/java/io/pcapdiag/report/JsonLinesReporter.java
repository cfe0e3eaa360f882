package io.pcapdiag.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.report.JsonReporter.AttemptDto;
import io.pcapdiag.report.JsonReporter.Document;
import io.pcapdiag.report.JsonReporter.FindingDto;
import io.pcapdiag.rules.Pattern;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * JSON Lines ({@code --format jsonl}): one compact object per line for log pipelines, each starting with
 * its {@code event}. {@code finding} lines carry the keys of a finding of {@link JsonReporter}'s document.
 * Offline, each listed finding is a line, final, and the closing {@code report} line carries the rest of
 * the document. Live, a finding line is sent when the finding appears or changes pattern, with its counts
 * as they were then; the closing {@code report} line carries the whole document, final counts included.
 */
public final class JsonLinesReporter implements Reporter {
    /**
     * The lines' schema, records bound like the document's: the event, when and where (a key left out where there is
     * none: offline lines carry no time, so that the output does not depend on when it ran, and no node outside a
     * cluster), then the keys of the body, unwrapped.
     */
    private record FindingLine(String event, @JsonInclude(JsonInclude.Include.NON_NULL) String time,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String previousPattern,
                               @JsonUnwrapped FindingDto finding) {
    }

    private record AttemptLine(String event, @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                               @JsonUnwrapped AttemptDto attempt) {
    }

    private record SummaryLine(String event, String time, @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                               String since, Map<String, Long> attempts, Map<String, Long> findings,
                               List<InterfaceStatus> interfaces) {
    }

    /** Offline: no time, start or interfaces, and a document without its findings and attempts (they had lines of their own). */
    private record ReportLine(String event, @JsonInclude(JsonInclude.Include.NON_NULL) String time,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String started,
                              @JsonInclude(JsonInclude.Include.NON_NULL) List<InterfaceStatus> interfaces,
                              int findingsListed, @JsonUnwrapped Document document) {
    }

    private final PrintWriter out;
    private final String node;

    /** @param node the node name (NODE_NAME), added to every line; null outside a cluster */
    public JsonLinesReporter(PrintWriter out, String node) {
        this.out = out;
        this.node = node == null || node.isBlank() ? null : node;
    }

    @Override
    public void finding(Diagnosis d, Pattern previous, long nowNanos) {
        line(new FindingLine("finding", Times.utc(nowNanos), node, previous == null ? null : previous.id(),
                JsonReporter.finding(d)));
    }

    @Override
    public void summary(LiveStatus s) {
        line(new SummaryLine("summary", Times.utc(s.nowNanos()), node, Times.utc(s.sinceNanos()),
                JsonReporter.outcomes(s.outcomes()), JsonReporter.byId(s.findings()), s.interfaces()));
    }

    @Override
    public void report(Report r) {
        Document doc = JsonReporter.document(r);
        int listed = doc.findings().size();
        if (r.live() == null) {
            for (FindingDto f : doc.findings()) {
                write(new FindingLine("finding", null, node, null, f));
            }
            for (AttemptDto a : doc.attemptList()) {
                write(new AttemptLine("attempt", node, a));
            }
            write(new ReportLine("report", null, node, null, null, listed, doc.withoutLists()));
        } else {
            Report.Live live = r.live();
            write(new ReportLine("report", Times.utc(live.endNanos()), node, Times.utc(live.startNanos()),
                    live.interfaces(), listed, doc));
        }
        out.flush();
    }

    /** A line on its own, sent at once. */
    private void line(Object line) {
        write(line);
        out.flush();
    }

    private void write(Object line) {
        try {
            JsonReporter.write(out, line, false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        out.println();
    }
}
