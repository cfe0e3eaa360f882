package io.pcapdiag.cli;

import picocli.CommandLine.Option;

/** Options every subcommand takes. */
public final class CommonOptions {
    @Option(names = {"-v", "--verbose"}, description = "Print stack traces with errors.")
    boolean verbose;

    @Option(names = "--color", defaultValue = "auto", paramLabel = "WHEN",
            description = "Colour the text report: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, colour only on a terminal).")
    ColorMode color;

    /** When to colour. */
    public enum ColorMode { auto, always, never }

    boolean useColor() {
        return color == ColorMode.always || (color == ColorMode.auto && System.console() != null && System.getenv("NO_COLOR") == null);
    }
}
