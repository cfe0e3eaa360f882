package io.pcapdiag.cli;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.diagnosis.Concern;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.diagnosis.Result;
import io.pcapdiag.report.EvidenceFiles;
import io.pcapdiag.report.Format;
import io.pcapdiag.report.IoReasons;
import io.pcapdiag.rules.Pattern;
import io.pcapdiag.rules.Severity;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pcapdiag analyze CAPTURE...}: read saved captures, pair every SYN, report what Kubernetes did wrong. */
@Command(name = "analyze", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {
            "Pair every TCP SYN in the captures with what answered it and name the Kubernetes service-networking failure.",
            "Captures are pcap or pcapng (also gzip-compressed) from tcpdump, dumpcap or Wireshark; several are merged in time order."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:analysed; no finding at or above --fail-on",
            "1:findings at or above --fail-on SEVERITY",
            "2:usage error",
            "3:no input could be read",
            ExitCodes.INTERNAL_HELP,
            "5:the report could not be written (standard output full or closed), or --evidence's files"})
public final class AnalyzeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    AnalysisOptions analysis;

    @Parameters(arity = "0..*", paramLabel = "CAPTURE", description = "pcap/pcapng files; - reads stdin; a bundle of"
            + " pcapdiag collect (its directory or .tar.gz) gives its captures, node facts and cluster snapshot.")
    List<String> positional = new ArrayList<>();

    @Option(names = "-r", paramLabel = "FILE",
            description = "A capture to read, as tcpdump -r takes it (repeatable); read before the CAPTURE arguments.")
    List<String> read = new ArrayList<>();

    /** The captures: -r's, then the arguments'. */
    private List<String> files;

    @Option(names = {"-o", "-f", "--format"}, defaultValue = "text", paramLabel = "FORMAT",
            description = "Report format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}). text opens with a table of"
                    + " the findings, a line each, and explains each below it; summary prints the table alone.")
    Format format;

    @Option(names = "--label", paramLabel = "FILE=NODE[/IFACE]",
            description = "Where a capture was recorded (repeatable): its node, and its interface when the capture does not"
                    + " say (a plain pcap from tcpdump -i eth0). Captures of several nodes are matched by connection"
                    + " attempt, and their clocks aligned from the attempts they share.")
    List<String> labels = new ArrayList<>();

    @Option(names = "--evidence", paramLabel = "DIR",
            description = "Write one pcapng per listed finding into DIR with only its packets, each commented with its"
                    + " role; Wireshark and tshark open them.")
    Path evidence;

    @Option(names = "--service", paramLabel = "NS/NAME",
            description = "Keep only the findings that concern this Service (repeatable): its address was dialed (any of"
                    + " its ports), or a probe came from its load-balancer IP. Needs --cluster, which names Services.")
    List<String> services = new ArrayList<>();

    @Option(names = "--pod", paramLabel = "NS/NAME",
            description = "Keep only the findings that concern this pod (repeatable): it is the client, the target, the"
                    + " responder, or the backend the capture shows the SYN DNAT'ed to. Needs --cluster, which names pods.")
    List<String> pods = new ArrayList<>();

    @Option(names = "--host", paramLabel = "IP[/LEN]",
            description = "Keep only the findings that concern these addresses (repeatable; IPv4 or IPv6, a prefix or one"
                    + " address): the client, the target, the responder or the DNAT'ed backend lies in it. With several of"
                    + " --service, --pod and --host a finding is kept when it concerns any; the closing line says how many"
                    + " of all the findings are shown.")
    List<String> hosts = new ArrayList<>();

    @Option(names = "--reader", defaultValue = "builtin", paramLabel = "READER",
            description = "Capture reader: builtin (fast, no native code) or pcap4j (libpcap; must be installed) (default: ${DEFAULT-VALUE}).")
    String reader;

    /** {@code --label FILE=NODE[/IFACE]} by file; a file that is not on the command line is a usage error. */
    private Map<String, String> labels() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String l : labels) {
            int eq = l.lastIndexOf('=');
            if (eq <= 0 || eq == l.length() - 1) {
                throw new IllegalArgumentException("--label takes FILE=NODE or FILE=NODE/INTERFACE, not '" + l + "'");
            }
            String file = l.substring(0, eq);
            if (!files.contains(file)) {
                throw new IllegalArgumentException("--label " + l + ": " + file + " is not among the captures on the command line");
            }
            if (out.put(file, l.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("--label: " + file + " is labelled twice");
            }
        }
        return out;
    }

    @Override
    public Integer call() {
        files = new ArrayList<>(read);
        files.addAll(positional);
        if (files.isEmpty()) {
            throw new IllegalArgumentException("analyze needs a capture: analyze FILE..., or -r FILE");
        }
        Reader r = switch (reader) {
            case "builtin" -> Reader.BUILTIN;
            case "pcap4j" -> Reader.PCAP4J;
            default -> throw new IllegalArgumentException("--reader takes builtin or pcap4j, not '" + reader + "'");
        };
        Severity failOn = analysis.failOnSeverity();
        // A bundle gives its captures and, unless the command line does, its node facts and cluster snapshot.
        files = BundleInputs.bundles(files, labels, analysis, ErrLines.to(spec.commandLine().getErr(), spec.commandLine().getErr()));
        Concern concern = Concern.of(services, pods, hosts);
        if (concern.needsNames() && analysis.cluster == null) {
            throw new IllegalArgumentException((services.isEmpty() ? "--pod" : "--service")
                    + " needs --cluster: only a cluster snapshot names Services and pods (--host takes addresses)");
        }
        if (files.stream().filter("-"::equals).count() > 1) {
            throw new IllegalArgumentException("stdin (-) can be read only once");
        }
        if (evidence != null) {
            evidenceDirectory(evidence);
        }
        Map<String, String> labelled = labels();
        List<Capture> captures = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            captures.add(new Capture(i, files.get(i), labelled.get(files.get(i))));
        }
        PrintWriter err = spec.commandLine().getErr();
        Analysis a = new Analysis(analysis.toOptions(ErrLines.to(err, err)));
        try (Progress progress = Progress.start(a, err)) {
            a.read(captures, r, ErrLines.to(err, progress));
        }
        int listed = analysis.maxFindings(format);
        Result result = a.finish(listed);
        PrintWriter out = spec.commandLine().getOut();
        Report report = Report.of(result, listed, null, concern);
        common.reporter(format, out, null).report(report);
        out.flush();
        if (out.checkError()) {
            err.println("pcapdiag: " + ExitCodes.OUTPUT_FAILED);
            err.flush();
            return ExitCodes.OUTPUT;
        }
        if (evidence != null) {
            try {
                new EvidenceFiles(evidence, captures, r, ErrLines.to(err, err)).report(report);
            } catch (UncheckedIOException e) {
                err.println("pcapdiag: --evidence " + evidence + ": cannot write: " + IoReasons.of(e.getCause()));
                err.flush();
                return ExitCodes.OUTPUT;
            }
            err.flush();
        }
        if (result.nothingRead()) {
            return ExitCodes.NO_INPUT;
        }
        boolean failing = failOn != null && Arrays.stream(Pattern.values())
                .anyMatch(p -> p.severity().compareTo(failOn) >= 0 && result.findings().findings(p) > 0);
        return failing ? ExitCodes.FINDINGS : ExitCodes.OK;
    }

    /**
     * --evidence's directory, made before the captures are read: a path that cannot be one is a usage error then, not
     * an internal error after the analysis (an existing file given as the directory ended the run in exit 4).
     */
    private static void evidenceDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (FileAlreadyExistsException e) {
            throw new IllegalArgumentException("--evidence " + dir + ": exists and is not a directory");
        } catch (IOException e) {
            throw new IllegalArgumentException("--evidence " + dir + ": cannot create: " + IoReasons.of(e));
        }
        if (!Files.isWritable(dir)) {
            throw new IllegalArgumentException("--evidence " + dir + ": not writable");
        }
    }
}
