package io.pcapdiag.cli;

import io.pcapdiag.check.Checker;
import io.pcapdiag.check.GitHubActions;
import io.pcapdiag.check.JUnitXml;
import io.pcapdiag.check.OptionsFile;
import io.pcapdiag.report.IoReasons;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pcapdiag check}: regression over a folder of captures, each with the verdict it must keep giving. */
@Command(name = "check", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {
            "Analyse each capture (pcap, pcapng, .gz) again and compare its findings with the baseline beside it, "
                + "NAME.expected.json (pattern, client, target, responder, attempts, names, cause verdicts; not times, "
                + "frames or paths). Prints what differs per capture and 'N passed, M failed'.",
            "A directory's " + OptionsFile.NAME + " file holds the analyze options its captures need (--lb-ip, --cluster, "
                + "--node-facts; paths relative to it). In GitHub Actions (GITHUB_ACTIONS=true) failures are also "
                + "::error annotations and a table in the job summary."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:every capture gave its baseline's findings (or --update wrote them)",
            "1:some capture differs from its baseline, has none, or could not be read",
            "2:usage error (no such file or directory, --junit FILE cannot be written)",
            "3:no capture found",
            ExitCodes.INTERNAL_HELP,
            "5:the report could not be written (standard output full or closed)"})
public final class CheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..*", paramLabel = "DIR|FILE", description = "Captures, or directories to search (default: .).")
    List<Path> paths = new ArrayList<>();

    @Option(names = "--update", description = "Write missing baselines and rewrite those that differ, saying which; "
            + "never deletes one.")
    boolean update;

    @Option(names = "--junit", paramLabel = "FILE", description = "Also write JUnit XML: a test case per capture, the "
            + "difference as its failure (not named like a capture, a baseline or pcapdiag.check).")
    Path junit;

    @Option(names = {"-j", "--jobs"}, paramLabel = "N", description = "Captures analysed at once (default: 0, one per "
            + "processor).", defaultValue = "0")
    int jobs;

    @Option(names = {"-v", "--verbose"}, description = "List the captures that passed too.")
    boolean verbose;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (jobs < 0) {
            throw new IllegalArgumentException("--jobs must be 1 or more (0: one per processor)");
        }
        refuseJUnitOverOwnFiles();
        int n = jobs == 0 ? Runtime.getRuntime().availableProcessors() : jobs;
        Map<String, String> env = System.getenv();
        boolean github = GitHubActions.active(env);
        Checker checker = new Checker(CheckCommand::analyze,
                optionsFile(spec.parent().subcommands().get("analyze").getCommandSpec()), update, n);
        List<Checker.Case> cases = checker.run(paths.isEmpty() ? List.of(Path.of(".")) : paths, c -> {
            print(out, c);
            if (github) {
                GitHubActions.annotate(out, c);
            }
            out.flush();
        });
        if (cases.isEmpty()) {
            err.println("pcapdiag: no capture (" + Checker.CAPTURE_NAMES + ") under "
                    + (paths.isEmpty() ? "." : String.join(", ", paths.stream().map(Path::toString).toList())));
            return ExitCodes.NO_INPUT;
        }
        long failed = cases.stream().filter(c -> c.status().failed()).count();
        long created = cases.stream().filter(c -> c.status() == Checker.Status.CREATED).count();
        long updated = cases.stream().filter(c -> c.status() == Checker.Status.UPDATED).count();
        String totals = (cases.size() - failed) + " passed, " + failed + " failed"
                + (update ? " (" + updated + " baselines updated, " + created + " created)" : "");
        out.println(totals);
        out.flush();
        int code = failed > 0 ? ExitCodes.FINDINGS : ExitCodes.OK;
        if (junit != null) {
            try {
                JUnitXml.write(junit, cases);
            } catch (IOException e) {
                err.println("pcapdiag: cannot write " + junit + ": " + IoReasons.of(e));
                code = ExitCodes.USAGE;
            }
        }
        String summary = env.get("GITHUB_STEP_SUMMARY");
        if (github && summary != null && !summary.isBlank()) {
            try {
                GitHubActions.summary(Path.of(summary), cases, totals);
            } catch (IOException e) {
                err.println("pcapdiag: cannot append to GITHUB_STEP_SUMMARY " + summary + ": " + e.getMessage());
            }
        }
        if (out.checkError()) {
            err.println("pcapdiag: " + ExitCodes.OUTPUT_FAILED);
            return ExitCodes.OUTPUT;
        }
        return code;
    }

    /**
     * The JUnit file is written after the run, over whatever has its name: named like a capture, a baseline or an
     * options file, it replaced one that check had read (a capture became XML), or the next run read it as one.
     * Refused before the run, by name.
     */
    private void refuseJUnitOverOwnFiles() {
        if (junit == null || junit.getFileName() == null) {
            return;
        }
        String name = junit.getFileName().toString();
        String kind = name.endsWith(Checker.BASELINE_SUFFIX) ? "a baseline"
                : Checker.isCapture(name) ? "a capture"
                : name.equals(OptionsFile.NAME) ? "an options file"
                : null;
        if (kind != null) {
            throw new IllegalArgumentException("--junit " + junit + " is named like " + kind
                    + ", which check reads; name it *.xml");
        }
    }

    private void print(PrintWriter out, Checker.Case c) {
        switch (c.status()) {
            case PASSED -> {
                if (verbose) {
                    out.println("ok      " + c.capture());
                }
            }
            case FAILED -> out.println("FAIL    " + c.capture() + ": " + c.headline());
            case CREATED -> out.println("new     " + c.capture() + ": " + c.headline());
            case UPDATED -> out.println("updated " + c.capture() + ": " + c.headline());
        }
        if (c.status() != Checker.Status.PASSED || verbose) {
            for (String d : c.details()) {
                out.println("    " + d);
            }
        }
    }

    /** The reader of options files for {@code analyze}'s options, as its picocli model has them. */
    static OptionsFile optionsFile(CommandSpec analyze) {
        return new OptionsFile(analyze.options().stream()
                .map(o -> new OptionsFile.Option(List.of(o.names()), o.arity().min() > 0,
                        List.of(o.auxiliaryTypes()).contains(Path.class), o.usageHelp() || o.versionHelp()))
                .toList());
    }

    /** One analysis in-process, as the analyze command runs it. */
    private static Checker.Run analyze(List<String> args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(o), new PrintWriter(e));
        return new Checker.Run(code, o.toString(), e.toString());
    }
}
