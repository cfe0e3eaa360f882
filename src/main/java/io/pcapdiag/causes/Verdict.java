package io.pcapdiag.causes;

import java.util.Locale;

/** How a candidate cause stands against the context; declared in the order reports rank them. */
public enum Verdict {
    /** A fact proves it. */
    CONFIRMED,
    /** Facts were read and nothing contradicts it, but nothing proves it either. */
    CONSISTENT,
    /** No context that could tell (no cluster snapshot, no node facts). */
    UNKNOWN,
    /** A fact rules it out: its fix is not offered. */
    CONTRADICTED;

    /** Made once: a report asks for it for every cause of every finding it lists. */
    private final String id = name().toLowerCase(Locale.ROOT);

    public String id() {
        return id;
    }
}
