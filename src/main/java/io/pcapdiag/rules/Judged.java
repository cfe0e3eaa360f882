package io.pcapdiag.rules;

/**
 * How a finding's candidate causes were judged, by cause id, for the words around the verdicts: "Probably" names only
 * causes not ruled out, and a check the context already answered is not asked again. Verdicts by their ids
 * ({@code confirmed}, {@code consistent}, {@code unknown}, {@code contradicted}), as the report spells them.
 */
@FunctionalInterface
public interface Judged {
    /** Nothing judged: every cause is open. */
    Judged NONE = id -> null;

    /** The verdict of the cause with this id, or null when it is no candidate of the finding. */
    String verdict(String causeId);

    /** A fact rules it out. */
    default boolean ruledOut(String causeId) {
        return "contradicted".equals(verdict(causeId));
    }

    /** The context answered it either way (confirmed or contradicted): a command that checks it would ask again. */
    default boolean answered(String causeId) {
        String v = verdict(causeId);
        return "confirmed".equals(v) || "contradicted".equals(v);
    }
}
