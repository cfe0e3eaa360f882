package io.pcapdiag.report;

import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.causes.Verdict;
import io.pcapdiag.context.Fact;
import io.pcapdiag.context.Ref;
import io.pcapdiag.decode.LinkTypes;
import io.pcapdiag.diagnosis.AttemptView;
import io.pcapdiag.diagnosis.CaptureSummary;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.diagnosis.EvidencePacket;
import io.pcapdiag.diagnosis.InterfaceStatus;
import io.pcapdiag.diagnosis.PathHop;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.rules.Explanation;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Severity;
import io.pcapdiag.rules.Statement;
import io.pcapdiag.track.DnsQuery;
import io.pcapdiag.track.ExchangeKind;
import io.pcapdiag.track.Outcome;
import io.pcapdiag.track.Sighting;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * The report for people: a table of the findings, a line each ({@link FindingTable}), a summary line per capture, then
 * one block per finding, most severe first; {@code --format summary} the table alone. Live, a line per finding as it
 * appears and a periodic summary.
 */
public final class TextReporter implements Reporter {
    public static final int DEFAULT_MAX_FINDINGS = 50;
    private static final int WIDTH = 100;
    private final PrintWriter out;
    private final boolean color;
    /** {@code --format summary}: the table and the closing lines, without the captures' lines and the findings' blocks. */
    private final boolean tableOnly;

    public TextReporter(PrintWriter out, boolean color) {
        this(out, color, false);
    }

    public TextReporter(PrintWriter out, boolean color, boolean tableOnly) {
        this.out = out;
        this.color = color;
        this.tableOnly = tableOnly;
    }

    @Override
    public synchronized void report(Report r) {
        try {
            write(r);
        } finally {
            out.flush(); // the lines before a failure too
        }
    }

    private void write(Report r) {
        if (!r.diagnoses().isEmpty()) {
            FindingTable.lines(r.diagnoses(), this::paintSeverity).forEach(out::println);
            out.println();
        }
        Result result = r.result();
        if (tableOnly) {
            closing(r, result);
            return;
        }
        if (r.live() != null) {
            liveHeader(r.live());
        }
        for (CaptureSummary s : result.captures()) {
            out.println(captureLine(s));
        }
        Result.TrackerStats t = result.tracker();
        if (t.evicted() > 0) {
            out.println("tracker: " + t.evicted() + " attempts evicted (table full at " + t.maxOpen()
                    + " open attempts; raise --max-open); evicted attempts without an answer were not judged");
        }
        if (t.connectionsEvicted() > 0) {
            out.println("tracker: " + t.connectionsEvicted() + " connections evicted before they ended (table full at "
                    + t.maxOpen() + " followed connections; raise --max-open); what came after was not judged");
        }
        for (int i = 0; i < r.diagnoses().size(); i++) {
            out.println();
            finding(r.diagnoses().get(i), i);
        }
        if (!r.attempts().isEmpty()) {
            out.println();
            out.println("Attempts (" + r.attempts().size() + (result.attemptsNotListed() > 0
                    ? " first in capture order; " + result.attemptsNotListed() + " more not listed" : "") + "):");
            for (AttemptView a : r.attempts()) {
                out.println("  " + attemptLine(a));
            }
        }
        out.println();
        closing(r, result);
    }

    /** The lines that end every text report: what was not listed, and the count of findings. */
    private void closing(Report r, Result result) {
        int hidden = r.concerned() - r.diagnoses().size();
        if (hidden > 0) {
            out.println(hidden + " more findings not shown (raise --max-findings " + r.listLimit() + " to see them)");
        }
        for (Map.Entry<Pattern, Long> e : result.overflow().entrySet()) {
            out.println(e.getValue() + " " + e.getKey().id() + " attempts were counted but not grouped:"
                    + " the bound on distinct findings was reached");
        }
        out.println(totalLine(result) + shown(r));
    }

    /** With --service, --pod or --host: how many of the findings counted concern them, and so are shown. */
    static String shown(Report r) {
        if (r.concern().all()) {
            return "";
        }
        return "; " + r.concerned() + " shown, " + (r.concerned() == 1 ? "the one that concerns " : "those that concern ")
                + r.concern().said();
    }

    /** {@code 14:04:21.865687 10.244.0.18:40001 > 10.96.10.80:8080 bypassed by 10.244.0.19:80 (nat-bypass-reply) ...}. */
    static String attemptLine(AttemptView a) {
        StringBuilder sb = new StringBuilder(Times.utc(a.firstSyn())).append(' ').append(a.clientEndpoint()).append(" > ").append(a.target()).append(' ');
        if (a.query() != null) {
            sb.append(a.query().question()).append(" (id ").append(a.query().id()).append(") ");
        } else if (a.kind() == ExchangeKind.UDP) {
            sb.append("UDP ");
        }
        sb.append(a.outcome());
        if (a.rcode() >= 0) {
            sb.append(' ').append(DnsQuery.rcodeName(a.rcode()));
        }
        if (a.responder() != null) {
            sb.append(" by ").append(a.responder());
        }
        if (a.pattern() != null) {
            sb.append(" (").append(a.pattern()).append(')');
        }
        if (a.connectNanos() >= 0) {
            sb.append(String.format(Locale.ROOT, " in %.3f ms", a.connectNanos() / 1e6));
        }
        if (a.retransmissions() > 0) {
            String word = a.kind() == ExchangeKind.TCP ? " retransmission" : " re-send";
            sb.append(", ").append(a.retransmissions()).append(word).append(a.retransmissions() == 1 ? "" : "s");
        }
        return sb.append(a.path().stream().map(TextReporter::hop).collect(Collectors.joining(" -> ", "; path ", ""))).toString();
    }

    /** One place on a path: where, the destination after DNAT, the tunnel it was inside ({@code eth0 in inside VXLAN ...}). */
    static String hop(PathHop h) {
        return h.place() + (h.afterDnat() ? " to " + h.destination() : "") + (h.tunnel() != null ? " inside " + h.tunnel() : "");
    }

    /** {@code , 6 DNS queries: 4 answered, 2 unanswered}, when there are any. */
    private static void exchanges(StringBuilder sb, ExchangeKind kind, Map<Outcome, Long> outcomes) {
        long n = outcomes.values().stream().mapToLong(Long::longValue).sum();
        if (n > 0) {
            sb.append(", ").append(kind.count(n)).append(outcomes(outcomes, ": ", ""));
        }
    }

    /** What the run decided, by kind: {@code 3 connection attempts}, {@code 1 connection attempt and 6 DNS queries}. */
    private static String decided(Result r) {
        List<String> parts = new ArrayList<>();
        long tcp = r.outcomes().values().stream().mapToLong(Long::longValue).sum();
        long dns = r.dnsOutcomes().values().stream().mapToLong(Long::longValue).sum();
        long udp = r.udpOutcomes().values().stream().mapToLong(Long::longValue).sum();
        if (tcp > 0 || dns + udp == 0) {
            parts.add(ExchangeKind.TCP.count(tcp));
        }
        if (dns > 0) {
            parts.add(ExchangeKind.DNS.count(dns));
        }
        if (udp > 0) {
            parts.add(ExchangeKind.UDP.count(udp));
        }
        return String.join(" and ", parts);
    }

    static String captureLine(CaptureSummary s) {
        StringBuilder sb = new StringBuilder();
        sb.append(s.capture().name()).append(": ");
        if (!s.opened()) {
            return sb.append("not analysed (").append(s.errors().isEmpty() ? "unreadable" : "see the error above").append(')').toString();
        }
        sb.append(s.packets()).append(s.packets() == 1 ? " packet" : " packets");
        if (!s.linkTypes().isEmpty()) {
            sb.append(s.linkTypes().stream().map(LinkTypes::name).collect(Collectors.joining(", ", " (", ")")));
        }
        sb.append(", ").append(s.attempts()).append(s.attempts() == 1 ? " attempt" : " attempts");
        sb.append(outcomes(s.outcomes(), ": ", ""));
        exchanges(sb, ExchangeKind.DNS, s.dnsOutcomes());
        exchanges(sb, ExchangeKind.UDP, s.udpOutcomes());
        sb.append("; ").append(s.truncated()).append(" truncated, ").append(s.malformed()).append(" malformed, ")
                .append(s.skippedRecords()).append(" skipped records");
        if (!s.errors().isEmpty()) {
            sb.append(", ").append(s.errors().size()).append(s.errors().size() == 1 ? " read error" : " read errors");
        }
        if (s.clockOffsetNanos() != null) {
            long off = s.clockOffsetNanos();
            sb.append("; clock ").append(String.format(Locale.ROOT, "%.6f s", Math.abs(off) / 1e9))
                    .append(off >= 0 ? " ahead of " : " behind ").append(s.clockReference()).append("'s (median over ")
                    .append(s.clockMatched()).append(s.clockMatched() == 1 ? " shared attempt" : " shared attempts")
                    .append("), aligned");
        }
        return sb.toString();
    }

    private static String outcomes(Map<Outcome, Long> outcomes, String prefix, String suffix) {
        StringJoiner oj = new StringJoiner(", ", prefix, suffix);
        oj.setEmptyValue("");
        for (Map.Entry<Outcome, Long> e : outcomes.entrySet()) {
            if (e.getValue() > 0) {
                oj.add(e.getValue() + " " + e.getKey().id());
            }
        }
        return oj.toString();
    }

    /** The block of the {@code index}th finding listed (from 0, as the JSON document's {@code findings} counts). */
    private void finding(Diagnosis d, int index) {
        Finding f = d.finding();
        String sev = paint(f.severity().label(), switch (f.severity()) {
            case ERROR -> "1;31";
            case WARNING -> "1;33";
            case INFO -> "1;36";
        });
        out.println(sev + " " + paint(f.pattern().id(), "1") + ": " + f.pattern().title());
        StringBuilder who = new StringBuilder("  ").append(named(f.client().toString(), d.client())).append(" -> ")
                .append(named(f.target().toString(), d.target()));
        if (f.responder() != null) {
            who.append(", answered by ").append(named(f.responder().toString(), d.responder()));
        }
        who.append(", ").append(f.kind().shortCount(f.attempts()));
        if (f.attempts() > 1) {
            who.append(" between ").append(Times.utc(f.firstNanos())).append(" and ").append(Times.utc(f.lastNanos()));
        }
        out.println(who);
        causes(d);
        Explanation x = d.explanation();
        List<String> told = new ArrayList<>();
        List<String> cited = new ArrayList<>();
        List<String> likely = new ArrayList<>();
        for (Statement s : x.story()) {
            switch (s.kind()) {
                case SEEN -> told.add(sentence(s.text(), refs(s.packets(), d.citeCaptures())));
                case FACT -> told.add(sentence(s.text(), " [" + s.basis() + "]"));
                case CITED -> cited.add(sentence(s.text(), " (" + s.basis() + ")"));
                case LIKELY -> likely.add(sentence(s.text(), ""));
            }
        }
        wrap("  What happened: ", "    ", String.join(" ", told));
        if (!cited.isEmpty()) {
            wrap("  Why: ", "    ", String.join(" ", cited));
        }
        if (!likely.isEmpty()) {
            wrap("  Probably: ", "    ", String.join(" ", likely));
        }
        out.println("  Evidence:");
        for (EvidencePacket p : d.evidence()) {
            String where = p.capture() + " #" + p.frame() + (p.iface() != null ? " " + p.iface() : "");
            String role = p.role().id();
            out.println("    " + role + " ".repeat(Math.max(0, 10 - role.length())) + " " + where + "  " + Times.utc(p.nanos()));
            out.println("               " + p.summary());
        }
        path(d);
        displayFilter(d, index);
        if (d.decodeAs() != null) {
            wrap("  Decode as: ", "    ", d.decodeAs() + " (the frames are inside a tunnel Wireshark does not decode on that"
                    + " port by itself: tshark -d " + d.decodeAs() + ", or Analyze > Decode As)");
        }
        for (Statement o : x.observations()) {
            wrap("  Seen: ", "    ", withRefs(o.text(), o.packets(), d.citeCaptures()));
        }
        for (String c : x.checks()) {
            wrap("  Check: ", "    ", c);
        }
        if (x.remedies().isEmpty()) {
            return; // every fix was for a cause the context ruled out: none is offered
        }
        out.println("  Fixes:");
        int n = 1;
        for (Explanation.Remedy rem : x.remedies()) {
            wrap("    " + n++ + ". ", "       ", rem.fix());
            if (rem.tradeoff() != null) {
                wrap("       trade-off: ", "         ", rem.tradeoff());
            }
        }
    }

    /**
     * The Wireshark display filter on one line when it fits the report's width; a longer one (hundreds of characters,
     * a thousand and more with tunnels and several attempts) is one line that no terminal shows and no reader reads,
     * and a filter broken over lines no longer pastes: the JSON document holds it whole, and --evidence writes the
     * packets it selects to a file of their own.
     */
    private void displayFilter(Diagnosis d, int index) {
        String lead = "  Wireshark: ";
        String filter = d.displayFilter();
        if (lead.length() + filter.length() <= WIDTH) {
            out.println(lead + filter);
            return;
        }
        wrap(lead, "    ", "the display filter that selects these packets (" + filter.length() + " characters) is"
                + " .findings[" + index + "].display_filter of --format json; --evidence DIR writes them to a file of their own");
    }

    /** {@code 10.96.0.10:53 (svc kube-system/kube-dns:dns)}, or the address alone when the context has no name for it. */
    static String named(String address, Ref ref) {
        return ref == null ? address : address + " (" + ref.text() + ")";
    }

    /**
     * The candidate causes: confirmed ones with their facts and the commands that fix them, then the
     * consistent ones, what is ruled out and why, and what no context could judge.
     */
    private void causes(Diagnosis d) {
        if (d.causes().isEmpty()) {
            return;
        }
        if (d.causes().stream().allMatch(c -> c.verdict() == Verdict.UNKNOWN)) {
            String ids = d.causes().stream().map(c -> c.cause().id()).collect(Collectors.joining(", "));
            out.println(d.informed()
                    ? "  Cause: unconfirmed (the context given cannot judge " + ids + ")"
                    : "  Cause: unconfirmed (no cluster or node context)");
            return;
        }
        List<String> unknown = new ArrayList<>();
        for (CauseVerdict c : d.causes()) {
            switch (c.verdict()) {
                case CONFIRMED, CONSISTENT -> {
                    String head = c.verdict() == Verdict.CONFIRMED ? "  Cause (confirmed): " : "  Possible cause (consistent): ";
                    wrap(head, "    ", c.cause().id() + ": " + c.cause().title());
                    for (Fact fact : c.facts()) {
                        wrap("    [" + fact.source().id() + "] ", "      ", fact.text());
                    }
                    for (String fix : c.fix()) {
                        wrap("    Fix: ", "      ", fix);
                    }
                }
                case CONTRADICTED -> {
                    String why = c.facts().stream().map(fact -> "[" + fact.source().id() + "] " + fact.text())
                            .collect(Collectors.joining("; "));
                    wrap("  Ruled out: ", "    ", c.cause().id() + ": " + why);
                }
                case UNKNOWN -> unknown.add(c.cause().id());
            }
        }
        if (!unknown.isEmpty()) {
            wrap("  Not judged (no context tells): ", "    ", String.join(", ", unknown));
        }
    }

    /**
     * Where the SYN went: every place it was seen, in order; for an unanswered finding the last of them and,
     * when the context can tell, between which two places it vanished.
     */
    private void path(Diagnosis d) {
        List<PathHop> path = d.path();
        if (path.size() > 1 || d.lastSeen() != null) {
            String places = path.stream()
                    .map(h -> hop(h) + " (" + (d.citeCaptures() ? h.capture() + " " : "") + "#" + h.frame() + ")")
                    .collect(Collectors.joining(" -> "));
            wrap("  Path: ", "    ", places + (path.size() == 1 ? ", the only place it was seen" : ""));
        }
        if (d.vanished() != null) {
            wrap("  Vanished: ", "    ", d.vanished());
        }
    }

    /** {@code text} as a sentence of a paragraph: capitalised, {@code suffix} (its references) before the one period. */
    static String sentence(String text, String suffix) {
        String t = (text.endsWith(".") ? text.substring(0, text.length() - 1) : text) + suffix + ".";
        return Character.toUpperCase(t.charAt(0)) + t.substring(1);
    }

    /** The references to the packets a sentence rests on: {@code " (#6, #13)"}, or "" for none. */
    static String refs(List<Sighting> packets, boolean citeCaptures) {
        if (packets.isEmpty()) {
            return "";
        }
        return " (" + String.join(", ", refList(packets, citeCaptures)) + ")";
    }

    /** The packets' references ({@code #12}, or {@code capture #12} when several captures are read), each once, in order. */
    static List<String> refList(List<Sighting> packets, boolean citeCaptures) {
        return packets.stream().map(s -> s.ref(citeCaptures)).distinct().toList();
    }

    /** An observation and the packets it rests on: {@code the SYN-ACK came from MAC ... (#20)}. */
    static String withRefs(String text, List<Sighting> packets, boolean citeCaptures) {
        return text + refs(packets, citeCaptures);
    }

    /**
     * The last line: what the findings amount to over the attempts judged; a run that could read no capture says so
     * instead, and one whose captures had read errors says how many records they cost.
     */
    static String totalLine(Result r) {
        int files = r.captures().size();
        if (files > 0 && r.nothingRead()) {
            return "no capture could be read (" + (files == 1 ? "1 input" : files + " inputs")
                    + ": see the errors above): nothing was analysed";
        }
        return findingsLine(r) + readLoss(r);
    }

    /** {@code "; 2 of 3 inputs could not be read; 5 records lost to read errors"}, or "" when every record was read. */
    private static String readLoss(Result r) {
        StringBuilder sb = new StringBuilder();
        long unread = r.captures().stream().filter(c -> !c.opened()).count();
        if (unread > 0) {
            sb.append("; ").append(unread).append(" of ").append(r.captures().size()).append(" inputs could not be read");
        }
        List<CaptureSummary> withErrors = r.captures().stream().filter(c -> c.opened() && !c.errors().isEmpty()).toList();
        if (!withErrors.isEmpty()) {
            long lost = withErrors.stream().mapToLong(CaptureSummary::skippedRecords).sum();
            long errors = withErrors.stream().mapToLong(c -> c.errors().size()).sum();
            sb.append("; ").append(lost).append(lost == 1 ? " record" : " records").append(" lost to ").append(errors)
                    .append(errors == 1 ? " read error" : " read errors");
        }
        return sb.toString();
    }

    private static String findingsLine(Result r) {
        long errors = r.findings().findings(Severity.ERROR);
        long warnings = r.findings().findings(Severity.WARNING);
        long infos = r.findings().findings(Severity.INFO);
        long attempts = r.outcomes().values().stream().mapToLong(Long::longValue).sum();
        long evicted = r.outcomes().getOrDefault(Outcome.EVICTED, 0L);
        if (r.findings().isEmpty()) {
            if (evicted > 0) {
                return "no findings among the " + (attempts - evicted) + " connection attempts judged; " + evicted
                        + " more were evicted unjudged (the table was full): no verdict on those";
            }
            return "no findings: " + decided(r) + " analysed, none shows a failure";
        }
        String line = r.findings().size() + (r.findings().size() == 1 ? " finding" : " findings") + " (" + errors
                + (errors == 1 ? " error, " : " errors, ") + warnings + (warnings == 1 ? " warning" : " warnings")
                + (infos > 0 ? ", " + infos + " info" : "") + ") over " + decided(r);
        return evicted > 0 ? line + "; " + evicted + " of them evicted unjudged (the table was full)" : line;
    }

    // ---------------------------------------------------------------- live

    @Override
    public synchronized void finding(Diagnosis d, Pattern previous, long nowNanos) {
        out.println(findingLine(d, previous));
        out.flush();
    }

    static String findingLine(Diagnosis d, Pattern previous) {
        Finding f = d.finding();
        StringBuilder sb = new StringBuilder(160);
        sb.append(Times.utc(f.firstNanos())).append(' ')
.append(String.format(java.util.Locale.ROOT, "%-7s", f.severity().label())).append(' ')
                .append(f.pattern().id()).append(' ').append(f.client()).append(" -> ").append(f.target());
        if (f.responder() != null) {
            sb.append(" answered by ").append(f.responder());
        }
        if (f.attempts() > 1) {
            sb.append(" (").append(f.kind().shortCount(f.attempts())).append(')');
        }
        EvidencePacket first = d.evidence().get(0);
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

    @Override
    public synchronized void summary(LiveStatus p) {
        try {
            summaryLines(p);
        } finally {
            out.flush();
        }
    }

    private void summaryLines(LiveStatus p) {
        long packets = p.interfaces().stream().mapToLong(InterfaceStatus::packets).sum();
        long attempts = p.outcomes().values().stream().mapToLong(Long::longValue).sum();
        long findings = p.findings().values().stream().mapToLong(Long::longValue).sum();
        StringBuilder sb = new StringBuilder("summary at ").append(Times.utc(p.nowNanos())).append(": ")
                .append(p.interfaces().stream().filter(i -> i.gone() == null).count()).append(" interfaces capturing, ")
                .append(packets).append(" packets, ").append(attempts).append(" attempts")
                .append(outcomes(p.outcomes(), " (", ")"))
                .append(", ").append(findings).append(findings == 1 ? " finding" : " findings");
        StringJoiner fj = new StringJoiner(", ", ": ", "");
        fj.setEmptyValue("");
        p.findings().forEach((pattern, n) -> fj.add(n + " " + pattern.id()));
        sb.append(fj);
        out.println(sb);
        for (InterfaceStatus i : p.interfaces()) {
            out.println("  " + interfaceLine(i));
        }
        dropWarning(p.interfaces());
    }

    private void liveHeader(Report.Live live) {
        long packets = live.interfaces().stream().mapToLong(InterfaceStatus::packets).sum();
        out.println("live capture from " + Times.utc(live.startNanos()) + " to " + Times.utc(live.endNanos()) + ": "
                + packets + (packets == 1 ? " packet" : " packets") + " on " + live.interfaces().size()
                + (live.interfaces().size() == 1 ? " interface" : " interfaces"));
        for (InterfaceStatus i : live.interfaces()) {
            out.println("  " + interfaceLine(i));
        }
        dropWarning(live.interfaces());
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

    /** A severity cell of the table, in the colour of its block's heading. */
    private String paintSeverity(String cell) {
        String word = cell.strip();
        return paint(word, word.equals("ERROR") ? "1;31" : "1;33") + cell.substring(word.length());
    }

    private String paint(String s, String ansi) {
        return color ? "\u001b[" + ansi + "m" + s + "\u001b[0m" : s;
    }

    /** Word-wraps {@code text} to {@link #WIDTH} columns: first line after {@code lead}, the rest after {@code indent}. */
    private void wrap(String lead, String indent, String text) {
        StringBuilder line = new StringBuilder(lead);
        int fresh = lead.length();
        for (String word : text.split(" ")) {
            if (line.length() > fresh && line.length() + 1 + word.length() > WIDTH) {
                out.println(line);
                line = new StringBuilder(indent);
                fresh = indent.length();
            }
            if (line.length() > fresh) {
                line.append(' ');
            }
            line.append(word);
        }
        out.println(line);
    }
}
