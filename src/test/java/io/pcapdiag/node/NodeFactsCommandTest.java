package io.pcapdiag.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pcapdiag node-facts} as a command: its exit codes, and that {@code analyze} never loads this package. */
class NodeFactsCommandTest {
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void writesOneDocumentToStdoutOrAFile(@TempDir Path dir) throws Exception {
        Run r = run("node-facts", "--node", "node-x");
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
        NodeFacts f = FactsReader.parse(r.out().getBytes(StandardCharsets.UTF_8), "stdout");
        assertEquals("node-x", f.nodeName().value());
        assertTrue(r.out().startsWith("{\n  \"schema_version\" : 1,\n  \"node\" : {"), r.out());

        Path file = dir.resolve("facts.json");
        Run w = run("node-facts", "-o", file.toString());
        assertEquals(0, w.code(), w.err());
        assertEquals("", w.out());
        assertTrue(NodeFacts.read(file).interfaceByName("lo").isPresent());
    }

    @Test
    void usageErrorsAndAnUnwritableOutputExitTwoWithOneLine(@TempDir Path dir) {
        Run bad = run("node-facts", "--sample", "soon");
        assertEquals(2, bad.code());
        assertEquals("pcapdiag: --sample takes a duration such as 30s, 5m or 1h, not 'soon'\n", bad.err());
        Run zero = run("node-facts", "--sample", "0s");
        assertEquals(2, zero.code());
        assertEquals("pcapdiag: --sample must be more than 0\n", zero.err());
        Path unwritable = dir.resolve("no-such-dir/facts.json");
        Run w = run("node-facts", "-o", unwritable.toString());
        assertEquals(2, w.code());
        assertEquals("pcapdiag: cannot write " + unwritable + ": no such directory\n", w.err());
        Run dirOut = run("node-facts", "-o", dir.toString());
        assertEquals(2, dirOut.code());
        assertEquals("pcapdiag: cannot write " + dir + ": Is a directory\n", dirOut.err());
        assertEquals("", w.out());
        Run extra = run("node-facts", "eth0");
        assertEquals(2, extra.code());
        assertEquals("pcapdiag: unexpected argument eth0: pcapdiag node-facts --help says what node-facts takes\n", extra.err());
    }

    @Test
    void helpListsTheExitCodes() {
        Run h = run("node-facts", "--help");
        assertEquals(0, h.code());
        assertTrue(h.out().contains("Exit codes:"), h.out());
        assertTrue(h.out().contains("2   usage error, or -o FILE cannot be written"), h.out());
        assertTrue(run("--help").out().contains("node-facts"));
    }

    /** Start-up of the offline path: registering the subcommand must not load io.pcapdiag.node. */
    @Test
    void analyzeLoadsNothingOfThisPackage(@TempDir Path dir) throws Exception {
        Path capture = NamespaceLab.projectDir().resolve("captures/closed-port/any.pcap");
        List<String> cmd = new ArrayList<>(NamespaceLab.java(dir));
        cmd.add(1, "-Xlog:class+load=info");
        cmd.addAll(List.of("analyze", "--format", "json", capture.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), log);
        assertTrue(log.contains("io.pcapdiag.analysis.Analysis "), "the log lists the application's classes");
        List<String> node = log.lines().filter(l -> l.contains("io.pcapdiag.node.")).toList();
        assertEquals(List.of(), node);
        assertFalse(log.contains("io.pcapdiag.live.Units"));
    }
}
