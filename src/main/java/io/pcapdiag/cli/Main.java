package io.pcapdiag.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point: {@code pcapdiag analyze|live|check|node-facts ...}. */
@Command(name = "pcapdiag", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        subcommands = {AnalyzeCommand.class, LiveCommand.class, CheckCommand.class, NodeFactsCommand.class,
            SchemaCommand.class, CommandLine.HelpCommand.class},
        description = "Node-level packet-capture analyzer for Kubernetes: pairs every TCP SYN with what answered it "
                + "and names what Kubernetes service networking did wrong.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:analysed (or captured, node facts written, every checked capture as its baseline); no finding at or "
                    + "above --fail-on",
            "1:findings at or above --fail-on SEVERITY; check: a capture differs from its baseline",
            "2:usage error",
            "3:no input could be read (analyze), no interface captured (live), no capture found (check)",
            ExitCodes.INTERNAL_HELP,
            "5:the report could not be written (standard output full or closed)"})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        // Named from the commands themselves: it said "analyze or live" after check and node-facts came.
        List<String> names = new ArrayList<>(spec.subcommands().keySet());
        names.remove("help");
        String last = names.remove(names.size() - 1);
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: "
                + String.join(", ", names) + " or " + last);
    }

    public static void main(String[] args) {
        Locale.setDefault(Locale.ROOT);
        // Straight onto file descriptor 1, not through System.out: a PrintStream swallows write errors, and a full disk
        // or a closed pipe must end in exit code 5 with one line, not in a report that silently never arrived.
        // In UTF-8, whatever the platform's charset.
        PrintWriter out = new PrintWriter(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int code = run(args, out, err);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** Runs the CLI with the given writers: what tests call in-process. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        try {
            CommandLine cl = commandLine();
            cl.setOut(out);
            cl.setErr(err);
            return cl.execute(args);
        } catch (OutOfMemoryError e) {
            // Whatever filled the heap is unreachable here: one line to say so, not the JVM's stack trace.
            out.flush();
            err.println("pcapdiag: out of memory: the Java heap (" + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                    + " MiB) is too small for this input; give it more with PCAPDIAG_JAVA_OPTS=-Xmx<size>, e.g. -Xmx2g");
            return ExitCodes.INTERNAL;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The command line with every subcommand, its handlers set: a failed command prints one line (its exit code). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parsed) -> failed(ex,
                parsed.subcommand() != null && parsed.subcommand().hasMatchedOption("-v"), commandLine.getErr()));
        // An argument picocli could not make a value of: a usage error.
        cl.setExitCodeExceptionMapper(ex -> ExitCodes.USAGE);
        return cl;
    }

    /** What a command's failure prints, and its exit code: a bad argument is a usage error, anything else a bug. */
    private static int failed(Exception ex, boolean verbose, PrintWriter err) {
        if (ex instanceof IllegalArgumentException) {
            err.println("pcapdiag: " + ex.getMessage());
            return ExitCodes.USAGE;
        }
        err.println("pcapdiag: " + ex);
        if (verbose) {
            ex.printStackTrace(err);
        } else {
            err.println("pcapdiag: run with -v for the stack trace");
        }
        return ExitCodes.INTERNAL;
    }

    /** Version from the jar manifest, or "dev" when run from classes. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"pcapdiag " + (v == null ? "dev" : v)};
        }
    }
}
