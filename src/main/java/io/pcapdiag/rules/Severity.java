package io.pcapdiag.rules;

import java.util.Locale;

/** How bad a finding is; {@code --fail-on} compares against it. Declared from least to most severe. */
public enum Severity {
    /** Worth knowing, never a failure: a cost, not a fault (dns-search-expansion). */
    INFO,
    WARNING,
    ERROR;

    /** Made once: a report asks for it for every finding it lists. */
    private final String id = name().toLowerCase(Locale.ROOT);

    public String id() {
        return id;
    }

    /** How reports print it: {@code ERROR}, {@code WARNING}, {@code INFO}. */
    public String label() {
        return name();
    }
}
