package io.pcapdiag.rules;

import java.util.Locale;

/** How bad a finding is; {@code --fail-on} compares against it. Declared from least to most severe. */
public enum Severity {
    WARNING,
    ERROR;

    /** Made once: a report asks for it for every finding it lists. */
    private final String id = name().toLowerCase(Locale.ROOT);

    public String id() {
        return id;
    }
}
