package io.pcapdiag.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point: {@code pcapdiag analyze|live|check|node-facts|collect|schema ...}. */
@Command(name = "pcapdiag", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        subcommands = {AnalyzeCommand.class, LiveCommand.class, CheckCommand.class, NodeFactsCommand.class,
            CollectCommand.class, SchemaCommand.class, CommandLine.HelpCommand.class},
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
        // A command line picocli could not parse: one line, as every other error; the usage only on --help.
        cl.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("pcapdiag: " + usageError(ex));
            err.flush();
            return ExitCodes.USAGE;
        });
        return cl;
    }

    /**
     * What a command line picocli could not parse says, in the words of pcapdiag's own usage errors ({@code --fail-on
     * takes warning, error or none, not 'x'}); an unknown command or option names where the list of them is.
     */
    static String usageError(CommandLine.ParameterException ex) {
        CommandLine cmd = ex.getCommandLine();
        String help = cmd.getCommandSpec().qualifiedName() + " --help";
        if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            String did = u.getSuggestions().isEmpty() ? "" : " (did you mean " + String.join(" or ", u.getSuggestions()) + "?)";
            if (first.startsWith("-")) {
                return "unknown option " + first + did + ": " + help + " lists the options";
            }
            if (cmd.getCommandSpec().parent() == null) {
                return "unknown command " + first + did + ": " + help + " lists the commands";
            }
            return "unexpected argument " + first + ": " + help + " says what " + cmd.getCommandName() + " takes";
        }
        if (ex instanceof CommandLine.MissingParameterException m && m.getMissing().size() == 1
                && m.getMissing().get(0) instanceof CommandLine.Model.OptionSpec o) {
            return o.longestName() + " needs a value: " + o.longestName() + " " + o.paramLabel();
        }
        if (ex.getArgSpec() instanceof CommandLine.Model.OptionSpec o && ex.getValue() != null) {
            List<String> values = new ArrayList<>();
            if (o.completionCandidates() != null) {
                o.completionCandidates().forEach(values::add);
            }
            String takes = values.isEmpty() ? "a " + o.paramLabel() : values.size() == 1 ? values.get(0)
                    : String.join(", ", values.subList(0, values.size() - 1)) + " or " + values.get(values.size() - 1);
            if (o.type() == int.class || o.type() == Integer.class || o.type() == long.class || o.type() == Long.class) {
                takes = "a whole number";
            }
            return o.longestName() + " takes " + takes + ", not '" + ex.getValue() + "'";
        }
        String m = ex.getMessage();
        return m.isEmpty() ? help : Character.toLowerCase(m.charAt(0)) + m.substring(1);
    }

    /** What a command's failure prints, and its exit code: a bad argument is a usage error, anything else a bug. */
    private static int failed(Exception ex, boolean verbose, PrintWriter err) {
        if (ex instanceof IllegalArgumentException) {
            err.println("pcapdiag: " + ex.getMessage());
            return ExitCodes.USAGE;
        }
        if (verbose) {
            err.println("pcapdiag: internal error: " + ex);
            ex.printStackTrace(err);
        } else {
            err.println("pcapdiag: internal error: " + ex + " (a bug: rerun with -v for the stack trace and report it)");
        }
        return ExitCodes.INTERNAL;
    }

    /**
     * The version and the commit the build wrote (src/dist/build-info): "pcapdiag 0.1.0 (commit v0.1.0-3-g1a2b3c4d5e6f)",
     * the commit "unknown" for a build from sources without git, and "dev" for classes no build wrote it for.
     */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"pcapdiag " + text()};
        }

        /** The version and the commit the build was made from ({@code 0.1.0 (commit e1f6d82f5c83)}), or {@code dev}. */
        static String text() {
            java.util.Properties build = new java.util.Properties();
            try (java.io.InputStream in = Main.class.getResourceAsStream("build.properties")) {
                if (in == null) {
                    return "dev";
                }
                build.load(in);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return build.getProperty("version", "dev") + " (commit " + build.getProperty("commit", "unknown") + ")";
        }
    }
}
