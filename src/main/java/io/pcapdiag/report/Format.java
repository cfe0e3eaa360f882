package io.pcapdiag.report;

/** Report formats; each command says which it accepts. */
public enum Format {
    /** For people: a block per finding, most severe first. */
    text,
    /** One JSON document (docs/design.md "JSON output"). */
    json,
    /** JSON Lines: one object per line ({@code event}: finding, summary, report) for log pipelines. */
    jsonl
}
