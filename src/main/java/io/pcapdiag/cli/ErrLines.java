package io.pcapdiag.cli;

import java.io.PrintWriter;
import java.util.function.Consumer;

/** Problems and warnings for stderr, a line each as {@code pcapdiag: LINE}. */
final class ErrLines {
    private ErrLines() {
    }

    /**
     * Each line written whole under {@code lock}: the progress display and live's capture threads write the same stream
     * from threads of their own.
     */
    static Consumer<String> to(PrintWriter err, Object lock) {
        return line -> {
            synchronized (lock) {
                err.println("pcapdiag: " + line);
                err.flush();
            }
        };
    }
}
