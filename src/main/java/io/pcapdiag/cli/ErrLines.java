package io.pcapdiag.cli;

import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * Problems and warnings for stderr, a line each as {@code pcapdiag: LINE}, written whole under {@code lock} (the
 * progress display writes the same stream from its own thread). A class rather than a lambda: analyze links none
 * (NoLambdaLinkedTest).
 */
final class ErrLines implements Consumer<String> {
    private final PrintWriter err;
    private final Object lock;

    ErrLines(PrintWriter err, Object lock) {
        this.err = err;
        this.lock = lock;
    }

    @Override
    public void accept(String line) {
        synchronized (lock) {
            err.println("pcapdiag: " + line);
            err.flush();
        }
    }
}
