package io.pcapdiag.report;

import io.pcapdiag.causes.CauseVerdict;
import io.pcapdiag.causes.Verdict;
import io.pcapdiag.context.Ref;
import io.pcapdiag.diagnosis.Diagnosis;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Severity;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The findings at a glance, one line each, as {@code kubectl get} lays out objects: severity, pattern, client and
 * target (by their Kubernetes names when the context knows them), attempts, the leading cause and its verdict. The
 * table fits {@link #MAX_WIDTH} columns: when its names do not, the longest client or target names lose the middle of
 * the object's name to an ellipsis (the kind, the namespace, the end of a pod's name and a Service's port stay); the
 * finding's block below names them whole.
 */
final class FindingTable {
    /** A terminal's width that holds the table whole, as {@code kubectl get} output fits one. */
    static final int MAX_WIDTH = 120;
    private static final String[] HEADER = {"SEVERITY", "PATTERN", "CLIENT", "TARGET", "ATTEMPTS", "CAUSE", "VERDICT"};
    private static final int CLIENT = 2;
    private static final int TARGET = 3;
    /** A name is not shortened below this: less of it would name nothing. */
    private static final int MIN_NAME = 16;
    private static final String GAP = "  ";
    private static final String ELLIPSIS = "\u2026";
    /** The end of a name kept when it is shortened: a pod's generated suffix, {@code -k2m9x}. */
    private static final int TAIL = 6;

    private FindingTable() {
    }

    /** The table's lines, the header first; {@code paint} colours a severity cell (already padded). */
    static List<String> lines(List<Diagnosis> diagnoses, UnaryOperator<String> paintSeverity) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        diagnoses.forEach(d -> rows.add(row(d)));
        int[] width = new int[HEADER.length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        fit(width, rows);
        List<String> lines = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            String[] row = rows.get(r);
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < row.length; c++) {
                String cell = elide(row[c], width[c]);
                String padded = c == row.length - 1 ? cell : cell + " ".repeat(width[c] - cell.length()) + GAP;
                line.append(r > 0 && c == 0 ? paintSeverity.apply(padded) : padded);
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }

    /** One finding's cells. */
    private static String[] row(Diagnosis d) {
        Finding f = d.finding();
        String cause = "-";
        String verdict = "-";
        if (!d.causes().isEmpty()) {
            CauseVerdict leading = d.causes().get(0);
            cause = leading.cause().id();
            // As the finding's block says it: a contradicted cause is "Ruled out".
            verdict = leading.verdict() == Verdict.CONTRADICTED ? "ruled out" : leading.verdict().id();
        }
        return new String[] {f.severity().label(), f.pattern().id(),
            name(f.client().toString(), d.client()), name(f.target().toString(), d.target()),
            Long.toString(f.attempts()), cause, verdict};
    }

    /**
     * {@code svc ns/name:port}, {@code node name} and, the kind most addresses have, a pod as {@code ns/name} alone; the
     * address when the context has no name.
     */
    static String name(String address, Ref ref) {
        if (ref == null) {
            return address;
        }
        return switch (ref.kind()) {
            case Ref.SERVICE -> "svc " + ref.namespace() + "/" + ref.name() + (ref.port() != null ? ":" + ref.port() : "");
            case Ref.POD -> ref.namespace() + "/" + ref.name();
            default -> ref.kind() + " " + (ref.namespace() != null ? ref.namespace() + "/" : "") + ref.name();
        };
    }

    /**
     * Narrows the client and target columns until the table fits {@link #MAX_WIDTH} or they are narrow: first the one
     * whose names can lose most of their middle and still show four characters of the name, then the wider.
     */
    private static void fit(int[] width, List<String[]> rows) {
        int total = GAP.length() * (width.length - 1);
        for (int w : width) {
            total += w;
        }
        int[] nice = {0, 0, neat(rows, CLIENT), neat(rows, TARGET)};
        while (total > MAX_WIDTH) {
            int slackClient = width[CLIENT] - nice[CLIENT];
            int slackTarget = width[TARGET] - nice[TARGET];
            int c = slackClient > 0 || slackTarget > 0 ? (slackClient >= slackTarget ? CLIENT : TARGET)
                    : width[CLIENT] >= width[TARGET] ? CLIENT : TARGET;
            if (width[c] <= MIN_NAME) {
                c = c == CLIENT ? TARGET : CLIENT;
            }
            if (width[c] <= MIN_NAME) {
                return;
            }
            width[c]--;
            total--;
        }
    }

    /** The narrowest column {@code c} can be with every name in it shortened in the middle of its object's name only. */
    private static int neat(List<String[]> rows, int c) {
        int neat = 0;
        for (String[] row : rows) {
            String s = row[c];
            int slash = s.indexOf('/');
            int colon = s.lastIndexOf(':');
            int end = s.startsWith("svc ") && colon > slash ? colon : s.length();
            int name = slash < 0 ? 0 : end - slash - 1;
            neat = Math.max(neat, s.length() - Math.max(0, name - 5));
        }
        return neat;
    }

    /**
     * {@code s} in {@code width} columns: whole; or with an ellipsis in place of the middle of what names the object,
     * the kind ({@code svc}) and a Service's port kept: the middle of the name when that leaves four characters of it
     * ({@code default/client-6d…-k2m9x}, the end of a pod's name being its generated suffix), else of the namespace
     * and name together; a plain address, in its middle.
     */
    static String elide(String s, int width) {
        if (s.length() <= width) {
            return s;
        }
        int cut = s.length() - width + 1; // characters to drop, the ellipsis taking one column
        int slash = s.indexOf('/');
        if (slash < 0) {
            return middle(s, 0, s.length(), cut);
        }
        int body = s.startsWith("svc ") || s.startsWith("node ") ? s.indexOf(' ') + 1 : 0;
        int colon = s.lastIndexOf(':');
        int end = s.startsWith("svc ") && colon > slash ? colon : s.length();
        return end - slash - 1 - cut >= 4 ? middle(s, slash + 1, end, cut) : middle(s, body, end, cut);
    }

    /** {@code s} with {@code cut} characters of {@code s[from, to)} dropped for an ellipsis: up to {@value #TAIL} of its end kept. */
    private static String middle(String s, int from, int to, int cut) {
        int keep = Math.max(0, to - from - cut);
        int tail = Math.min(TAIL, keep / 2);
        int head = keep - tail;
        if (head + tail + 1 >= to - from) {
            // Too narrow to name anything: the start of the cell, as the column allows.
            return s.substring(0, Math.max(0, s.length() - cut)) + ELLIPSIS;
        }
        return s.substring(0, from + head) + ELLIPSIS + s.substring(to - tail);
    }
}
