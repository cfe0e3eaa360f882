package io.pcapdiag.cli;

/** Exit codes, listed in every command's --help. */
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

    private ExitCodes() {
    }
}
