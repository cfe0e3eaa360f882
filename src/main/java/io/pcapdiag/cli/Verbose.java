package io.pcapdiag.cli;

import picocli.CommandLine.Option;

/** {@code -v}: a failure's stack trace besides its line (Main's handler asks picocli whether it was given). */
public final class Verbose {
    @Option(names = {"-v", "--verbose"}, description = "Print stack traces with errors.")
    boolean verbose;
}
