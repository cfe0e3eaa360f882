package io.pcapdiag.rules;

import io.pcapdiag.context.Fact;
import io.pcapdiag.track.Sighting;
import java.util.List;

/**
 * One sentence of an explanation and what it rests on, so that nothing is said without saying why it
 * may be said: packets of this capture, a fact from the context, documented behaviour (an RFC, the
 * kernel), or a likely reading, said as such.
 *
 * @param kind    what it rests on
 * @param text    the sentence, without its references
 * @param basis   {@link Kind#FACT}: the source's id ("capture", "cluster", ...); {@link Kind#CITED}: the
 *                citation ("RFC 9293 3.10.7.3"); else null
 * @param packets {@link Kind#SEEN}: the packets it was seen in
 */
public record Statement(Kind kind, String text, String basis, List<Sighting> packets) {
    /** What a statement rests on. */
    public enum Kind {
        /** Seen in the packets it cites. */
        SEEN,
        /** A fact the context holds, from the source it names. */
        FACT,
        /** Documented behaviour: a standard or the kernel's code, cited. */
        CITED,
        /** A reading of the above that is likely but not proven: reports say "probably". */
        LIKELY;

        /** The JSON report's {@code kind}, made once: it is asked for every statement a report lists. */
        private final String id = name().toLowerCase(java.util.Locale.ROOT);

        public String id() {
            return id;
        }
    }

    public Statement {
        packets = List.copyOf(packets);
    }

    public static Statement seen(String text, Sighting... packets) {
        return new Statement(Kind.SEEN, text, null, List.of(packets));
    }

    public static Statement seen(String text, List<Sighting> packets) {
        return new Statement(Kind.SEEN, text, null, packets);
    }

    public static Statement fact(Fact f) {
        return new Statement(Kind.FACT, f.text(), f.source().id(), List.of());
    }

    public static Statement cited(String text, String citation) {
        return new Statement(Kind.CITED, text, citation, List.of());
    }

    public static Statement likely(String text) {
        return new Statement(Kind.LIKELY, text, null, List.of());
    }
}
