package io.pcapdiag.node;

import java.util.Objects;
import java.util.function.Function;

/**
 * One fact about the node: its value, or unknown with the reason (no such file, no permission, not in this
 * kernel, not in the document). In JSON a known fact is its value and an unknown one is
 * {@code {"unknown": "reason"}}.
 */
public record Fact<T>(T value, String reason) {
    public Fact {
        if ((value == null) == (reason == null)) {
            throw new IllegalArgumentException("a fact is either known (a value) or unknown (a reason)");
        }
    }

    public static <T> Fact<T> known(T value) {
        return new Fact<>(Objects.requireNonNull(value, "value"), null);
    }

    public static <T> Fact<T> unknown(String reason) {
        return new Fact<>(null, Objects.requireNonNull(reason, "reason"));
    }

    public boolean isKnown() {
        return value != null;
    }

    /** The value, or {@code other} when unknown. */
    public T orElse(T other) {
        return value != null ? value : other;
    }

    public <U> Fact<U> map(Function<? super T, ? extends U> f) {
        return value != null ? Fact.known(f.apply(value)) : Fact.unknown(reason);
    }

    /** The same unknown with another value type. */
    @SuppressWarnings("unchecked")
    <U> Fact<U> asUnknown() {
        if (value != null) {
            throw new IllegalStateException("known fact");
        }
        return (Fact<U>) this;
    }

    @Override
    public String toString() {
        return value != null ? String.valueOf(value) : "unknown (" + reason + ")";
    }
}
