package io.pcapdiag.node;

import java.util.Objects;
import java.util.function.Function;

/**
 * A value read on the node, or unknown with the reason (no such file, no permission, not in this kernel, not in the
 * document). In the node facts' JSON a known value is itself and an unknown one is {@code {"unknown": "reason"}}.
 * Not to be confused with the context's Fact, a sentence naming its source that a rule or cause cites.
 */
public record OrUnknown<T>(T value, String reason) {
    public OrUnknown {
        if ((value == null) == (reason == null)) {
            throw new IllegalArgumentException("either known (a value) or unknown (a reason)");
        }
    }

    public static <T> OrUnknown<T> known(T value) {
        return new OrUnknown<>(Objects.requireNonNull(value, "value"), null);
    }

    public static <T> OrUnknown<T> unknown(String reason) {
        return new OrUnknown<>(null, Objects.requireNonNull(reason, "reason"));
    }

    public boolean isKnown() {
        return value != null;
    }

    /** The value, or {@code other} when unknown. */
    public T orElse(T other) {
        return value != null ? value : other;
    }

    public <U> OrUnknown<U> map(Function<? super T, ? extends U> f) {
        return value != null ? OrUnknown.known(f.apply(value)) : OrUnknown.unknown(reason);
    }

    /** The same unknown with another value type. */
    @SuppressWarnings("unchecked")
    <U> OrUnknown<U> asUnknown() {
        if (value != null) {
            throw new IllegalStateException("known fact");
        }
        return (OrUnknown<U>) this;
    }

    @Override
    public String toString() {
        return value != null ? String.valueOf(value) : "unknown (" + reason + ")";
    }
}
