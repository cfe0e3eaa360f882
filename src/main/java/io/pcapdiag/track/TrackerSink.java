package io.pcapdiag.track;

/** Receives each attempt once, when the tracker has decided its outcome. */
@FunctionalInterface
public interface AttemptSink {
    void decided(Attempt attempt);
}
