package io.pcapdiag.node;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Why a fact could not be read, in one line a user can act on. */
final class Reasons {
    private Reasons() {
    }

    static String of(Path file, IOException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file: " + file;
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + file;
        }
        String m = e.getMessage();
        // Linux answers reads of some /proc and sysfs files with EINVAL or EIO ("not in this kernel").
        return "cannot read " + file + ": " + oneLine(m == null || m.isBlank() ? e.getClass().getSimpleName() : m);
    }

    static String oneLine(String s) {
        return s.replaceAll("\\s*[\\r\\n]+\\s*", " ").trim();
    }
}
