package io.pcapdiag.cli;

/**
 * Exit codes: the one definition. Every command's --help lists the ones it uses with these numbers, and the README
 * the same list (ExitCodesTest holds the three together).
 */
public final class ExitCodes {
    /** Analysed; no finding at or above --fail-on. */
    public static final int OK = 0;
    /** Findings at or above --fail-on. */
    public static final int FINDINGS = 1;
    /** Bad command line. */
    public static final int USAGE = 2;
    /** No input could be read (or, live, no interface could be opened). */
    public static final int NO_INPUT = 3;

    /** An unexpected failure: a bug in pcapdiag (run with -v and report the stack trace). */
    public static final int INTERNAL = 4;
    /** What every command's --help says of {@link #INTERNAL}. */
    static final String INTERNAL_HELP = INTERNAL + ":internal error (a bug: rerun with -v and report the stack trace)";

    /** The report could not be written: standard output is full or closed. */
    public static final int OUTPUT = 5;

    /** What a failed write on standard output says, on stderr. */
    static final String OUTPUT_FAILED = "writing the report to standard output failed (disk full, or the reader of a pipe"
            + " went away)";

    private ExitCodes() {
    }
}
