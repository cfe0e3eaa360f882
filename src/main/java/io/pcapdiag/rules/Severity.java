package io.pcapdiag.rules;

import java.util.Locale;

/** How bad a finding is; {@code --fail-on} compares against it. Declared from least to most severe. */
public enum Severity {
    WARNING,
    ERROR;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
