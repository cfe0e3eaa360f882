package io.pcapdiag.analysis;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Reader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The analysis tests' way of reading capture files: as analyze does, on one thread or on two. */
final class ReadFiles {
    private ReadFiles() {
    }

    /** An analysis with the default options that has read {@code files} (not yet finished). */
    static Analysis read(List<Path> files, boolean pipelined) {
        Analysis a = new Analysis(Analysis.Options.defaults());
        a.setPipelined(pipelined);
        read(a, files);
        return a;
    }

    /** Has {@code a}, as it is set up (threads, listeners), read {@code files}, each a capture of its own. */
    static void read(Analysis a, List<Path> files) {
        List<Capture> caps = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            caps.add(new Capture(i, files.get(i).toString()));
        }
        a.read(caps, Reader.BUILTIN::open, line -> { });
    }
}
