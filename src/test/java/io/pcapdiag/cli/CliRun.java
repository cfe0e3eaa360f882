package io.pcapdiag.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** Runs the real CLI in-process and captures what it prints. */
record CliRun(int code, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(code, out.toString(), err.toString());
    }

    /** The project directory (Surefire runs tests there; the property makes it explicit). */
    static Path projectDir() {
        return Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    }

    /** The shared corpus beside the project, as the developers' and CI machines have it. */
    static Path corpusDir() {
        return projectDir().resolve("../shared/corpus").normalize();
    }

    static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }
}
