package io.pcapdiag.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.report.JsonReporter.AttemptDto;
import io.pcapdiag.report.JsonReporter.CaptureDto;
import io.pcapdiag.report.JsonReporter.Document;
import io.pcapdiag.report.JsonReporter.FindingDto;
import io.pcapdiag.rules.Pattern;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * JSON Lines ({@code --format jsonl}): one compact object per line for log pipelines, each with its {@code event} and
 * {@code schema_version}. A {@code finding} line carries the keys of a finding of {@link JsonReporter}'s document, its
 * {@code path} bounded ({@link #MAX_HOPS}); an {@code attempt} line an attempt of {@code attempt_list}; a
 * {@code capture} line an entry of {@code captures}; the closing {@code report} line the rest of the document, which
 * summarises the run without repeating a finding. Offline, each listed finding is a line, {@code final}. Live, a
 * finding line is sent when the finding appears or changes pattern, with its counts as they were then ({@code final}
 * false), and again at the end with its final counts ({@code final} true), before the attempt, capture and report
 * lines.
 *
 * <p>Each line stays well under 16 KiB, where container runtimes split a log line (docker's json-file and CRI's
 * logs cut at 16 KiB): a finding holds one attempt's evidence (at most four packets: SYN, DNAT'ed copy, answer,
 * client reset) and at most {@link #MAX_HOPS} places of its path, with how many more there were; the whole path is in
 * {@code --format json}'s document and the {@code --evidence} pcapng.
 */
public final class JsonLinesReporter implements Reporter {
    /** Places of a finding's path a line lists: a SYN seen in more captures than this is seen in many. */
    static final int MAX_HOPS = 8;

    /**
     * The lines' schema, records bound like the document's: the event, its schema version, when and where (a key left
     * out where there is none: offline lines carry no time, so that the output does not depend on when it ran, and no
     * node outside a cluster), then the keys of the body, unwrapped.
     */
    private record FindingLine(String event, int schemaVersion, @JsonInclude(JsonInclude.Include.NON_NULL) String time,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String previousPattern,
                               @JsonProperty("final") boolean last, @JsonUnwrapped FindingDto finding,
                               int pathNotListed) {
    }

    private record AttemptLine(String event, int schemaVersion, @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                               @JsonUnwrapped AttemptDto attempt) {
    }

    private record CaptureLine(String event, int schemaVersion, @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                               @JsonUnwrapped CaptureDto capture) {
    }

    private record SummaryLine(String event, int schemaVersion, String time,
                               @JsonInclude(JsonInclude.Include.NON_NULL) String node, String since,
                               Map<String, Long> attempts, Map<String, Long> findings,
                               List<InterfaceStatus> interfaces) {
    }

    /**
     * The document without its lists (findings, attempts and captures had lines of their own), how many of each were
     * listed; live, when it ran and its interfaces.
     */
    private record ReportLine(String event, @JsonInclude(JsonInclude.Include.NON_NULL) String time,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String node,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String started,
                              @JsonInclude(JsonInclude.Include.NON_NULL) List<InterfaceStatus> interfaces,
                              int findingsListed, int capturesListed, @JsonUnwrapped Document document) {
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
        String was = previous == null ? null : previous.id();
        write(findingLine(Times.rfc3339(nowNanos), was, false, JsonReporter.finding(d)));
        out.flush();
    }

    @Override
    public void summary(LiveStatus s) {
        write(new SummaryLine("summary", JsonReporter.SCHEMA_VERSION, Times.rfc3339(s.nowNanos()), node,
                Times.rfc3339(s.sinceNanos()), JsonReporter.outcomes(s.outcomes()), JsonReporter.byId(s.findings()),
                s.interfaces()));
        out.flush();
    }

    @Override
    public void report(Report r) {
        Document doc = JsonReporter.document(r);
        Report.Live live = r.live();
        String time = live == null ? null : Times.rfc3339(live.endNanos());
        for (FindingDto f : doc.findings()) {
            write(findingLine(time, null, true, f));
        }
        for (AttemptDto a : doc.attemptList()) {
            write(new AttemptLine("attempt", JsonReporter.SCHEMA_VERSION, node, a));
        }
        for (CaptureDto c : doc.captures()) {
            write(new CaptureLine("capture", JsonReporter.SCHEMA_VERSION, node, c));
        }
        write(new ReportLine("report", time, node, live == null ? null : Times.rfc3339(live.startNanos()),
                live == null ? null : live.interfaces(), doc.findings().size(), doc.captures().size(),
                doc.withoutLists()));
        out.flush();
    }

    /** A finding's line: its path cut at {@link #MAX_HOPS} places, and how many more there were. */
    private FindingLine findingLine(String time, String previousPattern, boolean last, FindingDto f) {
        int hops = f.path().size();
        FindingDto bounded = hops <= MAX_HOPS ? f : f.withPath(f.path().subList(0, MAX_HOPS));
        return new FindingLine("finding", JsonReporter.SCHEMA_VERSION, time, node, previousPattern, last, bounded,
                Math.max(0, hops - MAX_HOPS));
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
