package io.pcapdiag.cli;

import io.pcapdiag.report.Format;
import io.pcapdiag.report.JsonLinesReporter;
import io.pcapdiag.report.JsonReporter;
import io.pcapdiag.report.Reporter;
import io.pcapdiag.report.TextReporter;
import java.io.PrintWriter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the commands that report findings (analyze, live): -v, and the text report's colour. */
public final class CommonOptions {
    @Mixin
    Verbose verbose;

    @Option(names = "--color", defaultValue = "auto", paramLabel = "WHEN",
            description = "Colour the text report: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, colour only on a terminal).")
    ColorMode color;

    /** When to colour. */
    public enum ColorMode { auto, always, never }

    boolean useColor() {
        return color == ColorMode.always || (color == ColorMode.auto && System.console() != null && System.getenv("NO_COLOR") == null);
    }

    /** The report in {@code format} onto {@code out}; {@code node} is the node JSON Lines names, or null. */
    Reporter reporter(Format format, PrintWriter out, String node) {
        return switch (format) {
            case text -> new TextReporter(out, useColor());
            case summary -> new TextReporter(out, useColor(), true);
            case json -> new JsonReporter(out);
            case jsonl -> new JsonLinesReporter(out, node);
        };
    }
}
