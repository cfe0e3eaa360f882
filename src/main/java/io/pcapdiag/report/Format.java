package io.pcapdiag.report;

/** Report formats; each command says which it accepts. */
public enum Format {
    /** For people: a block per finding, most severe first. */
    text,
    /** One JSON document (docs/design.md "JSON output"). */
    json,
    /** JSON Lines: one object per line ({@code event}: finding, summary, report) for log pipelines. */
    jsonl,
    /** For people, at a glance: the text report's table of findings, a line each, and its closing lines. */
    summary
}
