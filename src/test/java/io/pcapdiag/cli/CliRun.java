package io.pcapdiag.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import java.nio.file.Path;

/** Runs the real CLI in-process and captures what it prints. */
record CliRun(int code, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(code, out.toString(), err.toString());
    }

    static Path projectDir() {
        return CaptureFilesOnDisk.projectDir();
    }

    static Path corpusDir() {
        return CaptureFilesOnDisk.corpusDir();
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }
}
