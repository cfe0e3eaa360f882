package io.pcapdiag.check;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * GitHub Actions: a failed capture as an {@code ::error file=...::} workflow command (shown on the run and
 * the pull request's files), and a Markdown table appended to the job summary ({@code $GITHUB_STEP_SUMMARY}).
 */
public final class GitHubActions {
    private GitHubActions() {
    }

    /** Whether this runs in a GitHub Actions job. */
    public static boolean active(java.util.Map<String, String> env) {
        return "true".equals(env.get("GITHUB_ACTIONS"));
    }

    public static void annotate(PrintWriter out, Checker.Case c) {
        if (!c.status().failed()) {
            return;
        }
        out.println("::error file=" + property(c.capture()) + ",title=" + property("pcapdiag check") + "::"
                + data(c.message()));
    }

    /** Appends the summary table to {@code file} (the job summary). */
    public static void summary(Path file, List<Checker.Case> cases, String totals) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("### pcapdiag check: ").append(totals).append("\n\n");
        List<Checker.Case> shown = cases.stream().filter(c -> c.status() != Checker.Status.PASSED).toList();
        if (!shown.isEmpty()) {
            b.append("| capture | result | difference |\n|---|---|---|\n");
            for (Checker.Case c : shown) {
                b.append("| `").append(cell(c.capture())).append("` | ")
                        .append(c.status().name().toLowerCase(java.util.Locale.ROOT)).append(" | ")
                        .append(cell(c.headline()));
                for (String d : c.details()) {
                    b.append("<br>").append(cell(d));
                }
                b.append(" |\n");
            }
            b.append('\n');
        }
        Files.writeString(file, b, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static String cell(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|").replace("`", "'");
    }

    /** The escaping of workflow command data (actions/toolkit, command.ts). */
    static String data(String s) {
        return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
    }

    /** The escaping of workflow command properties. */
    static String property(String s) {
        return data(s).replace(":", "%3A").replace(",", "%2C");
    }
}
