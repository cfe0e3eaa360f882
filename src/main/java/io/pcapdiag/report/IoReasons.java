package io.pcapdiag.report;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Why a file the user named could not be written (or its directory made): words, not an exception's name or a path. */
public final class IoReasons {
    private IoReasons() {
    }

    /**
     * The innermost I/O failure of {@code e} (or {@code e} itself, an invalid path say), said: a writer wraps the one
     * that happened (JUnit XML's said "java.io.IOException: No space left on device"), and the JDK's file exceptions
     * carry only the path as their message ("cannot write nope/x.xml: nope/x.xml").
     */
    public static String of(Exception e) {
        Exception io = e;
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IOException inner) {
                io = inner;
            }
        }
        if (io instanceof NoSuchFileException) {
            return "no such directory"; // what a file being written lacks
        }
        if (io instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (io instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return io.getMessage() == null ? io.getClass().getSimpleName() : io.getMessage();
    }
}
