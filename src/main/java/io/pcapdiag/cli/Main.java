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
        description = "Node-level packet-capture analyzer for Kubernetes: pairs every TCP SYN with what answered it "
                + "and names what Kubernetes service networking did wrong.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:analysed (or captured, node facts written, every checked capture as its baseline); no finding at or "
                    + "above --fail-on",
            "1:findings at or above --fail-on SEVERITY; check: a capture differs from its baseline",
            "2:usage error",
            "3:no input could be read (analyze), no interface captured (live), no capture found (check)",
            "4:internal error (a bug: rerun with -v and report the stack trace)",
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
        // picocli looks for Groovy's Closure class on the class path once per run unless told not to: a miss that
        // searches every jar, 8 ms of start-up (PERFORMANCE.md). pcapdiag has no Groovy.
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
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
            return runCommand(args, out, err);
        } catch (OutOfMemoryError e) {
            // Whatever filled the heap is unreachable here: one line to say so, not the JVM's stack trace.
            out.flush();
            err.println("pcapdiag: out of memory: the Java heap (" + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                    + " MiB) is too small for this input; give it more with PCAPDIAG_JAVA_OPTS=-Xmx<size>, e.g. -Xmx2g");
            err.flush();
            return ExitCodes.INTERNAL;
        }
    }

    private static int runCommand(String[] args, PrintWriter out, PrintWriter err) {
        // analyze with plain arguments: read without picocli's reflective model (AnalyzeArgs); anything else: picocli.
        AnalyzeCommand analyze = AnalyzeArgs.parse(args);
        int code;
        if (analyze != null) {
            analyze.out = out;
            analyze.err = err;
            try {
                code = analyze.call();
            } catch (Exception e) { // as picocli hands what call() throws to the handler below
                code = failed(e, analyze.common.verbose, err);
            }
        } else {
            CommandLine cl = commandLine(args);
            cl.setOut(out);
            cl.setErr(err);
            // Classes, not lambdas: picocli's interfaces are Java 5 class files, and a lambda implementing one links it
            // when the class-data archive is dumped, which then leaves it out ("Old class has been linked"), and the
            // lambda with it: each run that picocli reads loaded them from the jars (LauncherArchiveTest).
            cl.setExecutionExceptionHandler(new Failed());
            cl.setExitCodeExceptionMapper(new UsageCode());
            code = cl.execute(args);
        }
        out.flush();
        err.flush();
        return code;
    }

    /** A command's failure, as {@link #failed(Exception, boolean, PrintWriter)} says it. */
    private static final class Failed implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine commandLine, CommandLine.ParseResult parseResult) {
            return failed(ex, parseResult.subcommand() != null && parseResult.subcommand().hasMatchedOption("-v"),
                    commandLine.getErr());
        }
    }

    /** An argument picocli could not make a value of: a usage error. */
    private static final class UsageCode implements CommandLine.IExitCodeExceptionMapper {
        @Override
        public int getExitCode(Throwable exception) {
            return ExitCodes.USAGE;
        }
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

    /** The subcommands, in the order the help lists them. */
    private static final List<String> SUBCOMMANDS = List.of("analyze", "live", "check", "node-facts", "help");

    /** A new instance of subcommand {@code name} (a switch, not a table of lambdas: each lambda costs start-up). */
    private static Object subcommand(String name) {
        switch (name) {
            case "analyze":
                return new AnalyzeCommand();
            case "live":
                return new LiveCommand();
            case "check":
                return new CheckCommand();
            case "node-facts":
                return new NodeFactsCommand();
            default:
                return new CommandLine.HelpCommand();
        }
    }

    /**
     * picocli's command line for {@code args}. When the first argument names a subcommand, only that one is modelled:
     * picocli builds a command's model by reflection over its annotated fields, and the four it does not need cost
     * about 5 ms (PERFORMANCE.md). Anything else ({@code help}, {@code --help}, a typo) gets them all, so the
     * top-level help and "did you mean" see every subcommand.
     */
    public static CommandLine commandLine(String[] args) {
        CommandLine cl = new CommandLine(new Main());
        String first = args.length > 0 ? args[0] : "";
        if (!"help".equals(first) && SUBCOMMANDS.contains(first)) {
            cl.addSubcommand(first, subcommand(first));
        } else {
            for (String name : SUBCOMMANDS) {
                cl.addSubcommand(name, subcommand(name));
            }
        }
        cl.setCaseInsensitiveEnumValuesAllowed(true); // after the subcommands: it is set on those there are
        return cl;
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
