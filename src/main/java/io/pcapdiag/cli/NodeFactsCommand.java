package io.pcapdiag.cli;

import io.pcapdiag.live.Units;
import io.pcapdiag.node.Collector;
import io.pcapdiag.node.NodeFacts;
import io.pcapdiag.report.IoReasons;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pcapdiag node-facts}: one JSON document about the node it runs on, which NodeFacts.read takes back.
 * Its fields and signatures name JDK types only, so that picocli's model of it loads nothing of io.pcapdiag.node: only
 * running it does (NodeFactsCommandTest).
 */
@Command(name = "node-facts", sortOptions = false, mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = {
            "Print one JSON document about this node's networking: interfaces, bridges and hairpin mode, neighbours, routes, "
                + "sysctls, conntrack and nstat counters, kube-proxy's mode.",
            "Run it on the node (in the namespace) the capture was taken in, as root for every fact; a fact it cannot read "
                + "is written as unknown with the reason."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {
            "0:written (facts that could not be read are unknown in it)",
            "2:usage error, or -o FILE cannot be written",
            ExitCodes.INTERNAL_HELP,
            "5:standard output failed (full, or the reader of a pipe went away)"})
public final class NodeFactsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--node", paramLabel = "NAME",
            description = "The node's Kubernetes name (default: NODE_NAME from the environment, else the hostname).")
    String node;

    @Option(names = "--sample", paramLabel = "DURATION",
            description = "Read every counter, wait DURATION (5s, 1m), read them again: the document then holds both readings and the deltas.")
    String sample;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the document to FILE instead of stdout.")
    String output;

    @Mixin
    Verbose verbose;

    @Override
    public Integer call() throws InterruptedException {
        long sampleNanos = sample == null ? 0 : Units.nanos("--sample", sample, true);
        PrintWriter err = spec.commandLine().getErr();
        Writer out = spec.commandLine().getOut();
        Writer file = null;
        if (output != null) {
            // Opened before collecting: an unwritable FILE is said at once, not after the sample.
            try {
                file = Files.newBufferedWriter(Path.of(output), StandardCharsets.UTF_8);
            } catch (IOException | RuntimeException e) {
                err.println("pcapdiag: cannot write " + output + ": " + IoReasons.of(e));
                return ExitCodes.USAGE;
            }
        }
        Collector collector = new Collector(Collector.Settings.of(node));
        NodeFacts facts = collector.collect();
        if (sampleNanos > 0) {
            err.println("pcapdiag: counters read; reading them again in " + sample.trim());
            err.flush();
            TimeUnit.NANOSECONDS.sleep(sampleNanos);
            facts = collector.sampled(facts);
        }
        if (file == null) {
            facts.write(out);
            if (out instanceof PrintWriter p && p.checkError()) {
                err.println("pcapdiag: " + ExitCodes.OUTPUT_FAILED);
                return ExitCodes.OUTPUT;
            }
            return ExitCodes.OK;
        }
        try (Writer w = file) {
            facts.write(w);
        } catch (IOException e) {
            err.println("pcapdiag: cannot write " + output + ": " + IoReasons.of(e));
            return ExitCodes.USAGE;
        } catch (UncheckedIOException e) {
            err.println("pcapdiag: cannot write " + output + ": " + IoReasons.of(e.getCause()));
            return ExitCodes.USAGE;
        }
        return ExitCodes.OK;
    }
}
