package io.pcapdiag.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point: {@code pcapdiag analyze ...} and {@code pcapdiag live ...}. */
@Command(name = "pcapdiag", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Node-level packet-capture analyzer for Kubernetes: pairs every TCP SYN with what answered it "
                + "and names what Kubernetes service networking did wrong.",
        subcommands = {AnalyzeCommand.class, LiveCommand.class, CheckCommand.class, NodeFactsCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:analysed (or captured, or node facts written); no finding at or above --fail-on",
            "1:findings at or above --fail-on SEVERITY",
            "2:usage error",
            "3:no input could be read (analyze) or no interface captured (live)",
            "4:internal error (a bug: rerun with -v and report the stack trace)",
            "5:the report could not be written (standard output full or closed)"})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: analyze or live");
    }

    public static void main(String[] args) {
        Locale.setDefault(Locale.ROOT);
        // Straight onto file descriptor 1, not through System.out: a PrintStream swallows write errors, and a full disk
        // or a closed pipe must end in exit code 5 with one line, not in a report that silently never arrived.
        PrintWriter out = new PrintWriter(new OutputStreamWriter(new java.io.FileOutputStream(java.io.FileDescriptor.out),
                StandardCharsets.UTF_8), false);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(args, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the CLI with the given writers: what tests call in-process. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            boolean verbose = parseResult.subcommand() != null
                    && parseResult.subcommand().hasMatchedOption("-v");
            if (ex instanceof IllegalArgumentException) {
                commandLine.getErr().println("pcapdiag: " + ex.getMessage());
                return ExitCodes.USAGE;
            }
            commandLine.getErr().println("pcapdiag: " + ex);
            if (verbose) {
                ex.printStackTrace(commandLine.getErr());
            } else {
                commandLine.getErr().println("pcapdiag: run with -v for the stack trace");
            }
            return ExitCodes.INTERNAL;
        });
        cl.setExitCodeExceptionMapper(ex -> ExitCodes.USAGE);
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** Version from the jar manifest, or "dev" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"pcapdiag " + (v == null ? "dev" : v)};
        }
    }
}
