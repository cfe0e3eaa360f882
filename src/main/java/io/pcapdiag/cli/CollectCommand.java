package io.pcapdiag.cli;

import io.pcapdiag.capture.Libpcap;
import io.pcapdiag.collect.Bundle;
import io.pcapdiag.collect.ClusterSnapshot;
import io.pcapdiag.collect.Collect;
import io.pcapdiag.collect.Manifest;
import io.pcapdiag.live.CaptureFilter;
import io.pcapdiag.live.CaptureSettings;
import io.pcapdiag.live.InterfacePatterns;
import io.pcapdiag.live.Privileges;
import io.pcapdiag.live.Units;
import io.pcapdiag.report.IoReasons;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pcapdiag collect}: everything {@code analyze} needs from a node in one bundle: the capture (live's capture,
 * headers only; every TCP segment with {@code --established}), the node's facts at the start and the end, the cluster snapshot when an API server answers, and a
 * manifest of what it holds and what it could not take. SIGINT/SIGTERM end the capture early; the bundle is still
 * written.
 */
@Command(name = "collect", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = LiveCommand.Version.class,
        description = {
            "Capture on this node for --duration (SYN, RST and FIN segments and ICMP errors, headers only, as live does),"
                    + " read its node facts at the start and the end, take the cluster snapshot when the API server"
                    + " answers (in a pod, or with --kubeconfig), and write one bundle: a directory, a .tar.gz, or - for"
                    + " a .tar.gz on standard output. pcapdiag analyze BUNDLE reads all of it.",
            "Needs root or the CAP_NET_RAW capability, and libpcap; run it on the node, in the pcapdiag DaemonSet's pod or"
                    + " a kubectl debug node/NAME pod (kubectl pcapdiag capture does both)."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:the bundle is written (its manifest says what it could not take, and why)",
            "2:usage error, or the output cannot be written there",
            "3:no interface could be captured: without libpcap or the privilege nothing is written; else (no such"
                    + " interface) the bundle holds the rest and says why",
            ExitCodes.INTERNAL_HELP,
            "5:writing the bundle failed (disk full, or the reader of standard output went away)"})
public final class CollectCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-i", "--interface"}, paramLabel = "IFACES", defaultValue = "any",
            description = "Interfaces: names and globs, comma-separated or repeated (eth0,cni0,'veth*'), or any: every"
                    + " interface in one capture (default: ${DEFAULT-VALUE}).")
    List<String> interfaces;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "30s",
            description = "How long to capture (30s, 5m; 0 = until SIGINT/SIGTERM) (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = {"-o", "--output"}, paramLabel = "PATH",
            description = "Where the bundle goes: a directory (created; it must not exist, or be empty), FILE.tar.gz, or -"
                    + " for a .tar.gz on standard output (default: pcapdiag-NODE-TIME.tar.gz here).")
    String output;

    @Option(names = "--node", paramLabel = "NAME",
            description = "The node's Kubernetes name (default: NODE_NAME from the environment, else the hostname).")
    String node;

    @Option(names = "--kubeconfig", paramLabel = "FILE",
            description = "The kubeconfig to take the cluster snapshot with (else, inside a pod, its service account;"
                    + " else $KUBECONFIG when set).")
    Path kubeconfig;

    @Option(names = "--no-cluster", negatable = false, description = "Do not ask the API server for the cluster snapshot.")
    boolean noCluster;

    @Option(names = "--no-node-facts", negatable = false, description = "Do not read this node's facts.")
    boolean noNodeFacts;

    @Option(names = "--established", negatable = false,
            description = "Capture every TCP segment, as live --established does, so that analyze of the bundle sees what"
                    + " happens after the handshake (pmtu-blackhole, reset-after-reply, reset-by-gone-endpoint); the"
                    + " capture then grows with the node's TCP traffic, up to --snaplen bytes a packet.")
    boolean established;

    @Option(names = "--snaplen", paramLabel = "BYTES", defaultValue = "" + CaptureFilter.DEFAULT_SNAPLEN,
            description = "Bytes kept per packet: the default keeps headers and drops application data (default: ${DEFAULT-VALUE}).")
    int snaplen;

    @Option(names = "--buffer-size", paramLabel = "SIZE", defaultValue = "4MiB",
            description = "Kernel capture buffer per interface (default: ${DEFAULT-VALUE}).")
    String bufferSize;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the capture is written before it is packed into a .tar.gz (default: beside -o FILE; for"
                    + " -o -, the temporary directory). A container with a read-only root file system needs a writable"
                    + " volume here.")
    Path workDir;

    @Option(names = "--force", negatable = false, description = "Replace an existing output file or directory.")
    boolean force;

    @Mixin
    Verbose verbose;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Consumer<String> say = ErrLines.to(err, err);
        long nanos = Units.nanos("--duration", duration, false);
        if (snaplen < 64 || snaplen > 262_144) {
            throw new IllegalArgumentException("--snaplen must be 64-262144 bytes (headers need at least 64)");
        }
        long buffer = Units.bytes("--buffer-size", bufferSize);
        if (buffer < 64 * 1024 || buffer > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--buffer-size must be 64KiB-2GiB");
        }
        if (kubeconfig != null && !Files.isReadable(kubeconfig)) {
            throw new IllegalArgumentException("--kubeconfig " + kubeconfig + ": no such readable file");
        }
        if (kubeconfig != null && noCluster) {
            throw new IllegalArgumentException("--kubeconfig and --no-cluster contradict each other");
        }
        InterfacePatterns patterns = InterfacePatterns.parse(interfaces);
        Libpcap.prepareNativeDir();
        if (System.getProperty("org.slf4j.simpleLogger.log.org.pcap4j") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.org.pcap4j", "error");
        }
        String cannot = Privileges.cannotCapture();
        if (cannot != null) {
            err.println("pcapdiag: " + cannot);
            return ExitCodes.NO_INPUT;
        }
        Output out = Output.of(output, force, workDir);
        String why = noCluster ? "--no-cluster" : noApiServer(kubeconfig, System.getenv());
        Collect.Settings settings = new Collect.Settings(new CaptureSettings(patterns,
                established ? CaptureFilter.ESTABLISHED : CaptureFilter.DEFAULT, snaplen, (int) buffer, false, null, 0), String.join(",", patterns.patterns()), nanos, TimeUnit.SECONDS.toNanos(2), node,
                !noNodeFacts, why == null ? ClusterSnapshot.config(kubeconfig) : null, why, Main.Version.text());
        Collect collect = new Collect(settings, say);

        // SIGINT/SIGTERM end the capture early; the bundle is still written.
        StopOnSignal stop = new StopOnSignal(collect::requestStop, 60, err::flush);
        Path work = out.work();
        try {
            Manifest m = collect.run(work, () -> say.accept(nanos > 0 ? "capturing for " + duration.trim()
                    : "capturing until SIGINT/SIGTERM"));
            int code = out.finish(work, m, say);
            stop.code(code == ExitCodes.OK && m.notTaken().stream().anyMatch(n -> n.what().equals("capture"))
                    ? ExitCodes.NO_INPUT : code);
        } finally {
            if (out.temporary()) {
                Bundle.delete(work);
            }
            err.flush();
            stop.ended();
        }
        return stop.code();
    }

    /**
     * Why the API server is not asked, or null when it is: inside a pod (its service account), with --kubeconfig, or
     * with $KUBECONFIG, as live's --watch-cluster=auto decides.
     */
    static String noApiServer(Path kubeconfig, Map<String, String> env) {
        if (kubeconfig != null || env.get("KUBERNETES_SERVICE_HOST") != null || env.get("KUBECONFIG") != null) {
            return null;
        }
        return "not in a pod (no KUBERNETES_SERVICE_HOST), and neither --kubeconfig nor $KUBECONFIG given";
    }



    /**
     * Where the bundle goes, decided (and checked) before anything is captured.
     *
     * @param path   the directory, the .tar.gz, or null for standard output
     * @param tar    whether it is an archive
     * @param work   the directory the files are collected in
     * @param named  false when -o was not given: the archive is named after the node and the time
     */
    private record Output(Path path, boolean tar, Path work, boolean named) {
        static Output of(String output, boolean force, Path workDir) {
            try {
                return make(output, force, workDir);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot make the bundle's working directory: " + IoReasons.of(e)
                        + " (--work-dir names a writable one)");
            }
        }

        private static Output make(String output, boolean force, Path workDir) throws IOException {
            if ("-".equals(output)) {
                return new Output(null, true, workDir != null ? Files.createTempDirectory(workDir, "pcapdiag-collect-")
                        : Files.createTempDirectory("pcapdiag-collect-"), true);
            }
            boolean defaulted = output == null;
            Path p = Path.of(defaulted ? "pcapdiag-collect.tar.gz" : output);
            boolean tar = defaulted || Bundle.is(p.toString()) && !Files.isDirectory(p);
            Path parent = p.toAbsolutePath().getParent();
            if (!Files.isDirectory(parent) || !Files.isWritable(parent)) {
                throw new IllegalArgumentException("--output " + p + ": directory " + parent + " does not exist or is not writable");
            }
            if (tar) {
                if (!defaulted && Files.exists(p) && !force) {
                    throw new IllegalArgumentException("--output " + p + " exists (--force replaces it)");
                }
                return new Output(defaulted ? null : p, true,
                        Files.createTempDirectory(workDir != null ? workDir : parent, ".pcapdiag-collect-"), !defaulted);
            }
            if (Files.exists(p)) {
                if (!Files.isDirectory(p)) {
                    throw new IllegalArgumentException("--output " + p + " exists and is not a directory");
                }
                try (Stream<Path> s = Files.list(p)) {
                    if (s.findAny().isPresent()) {
                        if (!force) {
                            throw new IllegalArgumentException("--output " + p + " is not empty (--force empties it)");
                        }
                        Bundle.delete(p);
                    }
                }
            }
            Files.createDirectories(p);
            return new Output(p, false, p, true);
        }

        boolean temporary() {
            return tar;
        }

        /** Packs the bundle where it goes; the exit code. */
        int finish(Path dir, Manifest m, Consumer<String> say) {
            if (!tar) {
                say.accept("bundle written: " + path + "/ (pcapdiag analyze " + path + ")");
                return ExitCodes.OK;
            }
            String stamp = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC)
                    .format(Instant.parse(m.started()));
            String top = "pcapdiag-" + (m.node() == null ? "node" : m.node().replaceAll("[^A-Za-z0-9._-]", "_")) + "-" + stamp;
            long mtime = Instant.parse(m.ended()).getEpochSecond();
            Path file = named ? path : Path.of(top + ".tar.gz");
            if (file == null) {
                try {
                    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
                    Bundle.pack(dir, top, mtime, stdout);
                    stdout.flush();
                } catch (IOException e) {
                    say.accept("writing the bundle to standard output failed: " + IoReasons.of(e));
                    return ExitCodes.OUTPUT;
                }
                say.accept("bundle written to standard output (" + top + "/)");
                return ExitCodes.OK;
            }
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            try (OutputStream o = Files.newOutputStream(partial)) {
                Bundle.pack(dir, Bundle.is(file.toString()) ? baseName(file) : top, mtime, o);
            } catch (IOException e) {
                say.accept("writing " + file + " failed: " + IoReasons.of(e));
                try {
                    Files.deleteIfExists(partial);
                } catch (IOException ignored) {
                    // The line above says what matters.
                }
                return ExitCodes.OUTPUT;
            }
            try {
                if (!named && Files.exists(file)) {
                    throw new IOException(file + " exists");
                }
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                say.accept("writing " + file + " failed: " + IoReasons.of(e));
                return ExitCodes.OUTPUT;
            }
            say.accept("bundle written: " + file + " (pcapdiag analyze " + file + ")");
            return ExitCodes.OK;
        }

        private static String baseName(Path file) {
            String n = file.getFileName().toString();
            return n.endsWith(".tar.gz") ? n.substring(0, n.length() - 7) : n.substring(0, n.length() - 4);
        }
    }
}
