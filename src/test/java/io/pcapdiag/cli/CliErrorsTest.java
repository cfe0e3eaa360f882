package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input and bad usage through the real CLI: one line each, the rest analysed, the documented exit codes. */
class CliErrorsTest {
    @TempDir
    Path dir;

    /** A valid pcap: Ethernet, one SYN from 10.0.0.1:40000 to 10.0.0.2:80 answered by RST. */
    private byte[] refusedPcap() {
        ByteBuffer b = ByteBuffer.allocate(24 + 2 * (16 + 54)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        record(b, 1_700_000_000, 0, tcp(0x0a000001, 0x0a000002, 40000, 80, 1000, 0, 0x02));
        record(b, 1_700_000_000, 200, tcp(0x0a000002, 0x0a000001, 80, 40000, 0, 1001, 0x14));
        return b.array();
    }

    private static void record(ByteBuffer b, int sec, int usec, byte[] frame) {
        b.putInt(sec).putInt(usec).putInt(frame.length).putInt(frame.length).put(frame);
    }

    private static byte[] tcp(int src, int dst, int sport, int dport, int seq, int ack, int flags) {
        ByteBuffer f = ByteBuffer.allocate(54);
        f.put(new byte[] {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}).putShort((short) 0x0800);
        f.put((byte) 0x45).put((byte) 0).putShort((short) 40).putInt(0).put((byte) 64).put((byte) 6).putShort((short) 0)
                .putInt(src).putInt(dst);
        f.putShort((short) sport).putShort((short) dport).putInt(seq).putInt(ack).put((byte) 0x50).put((byte) flags)
                .putShort((short) 64240).putInt(0);
        return f.array();
    }

    /** No subcommand: the line names every one (it said "analyze or live" after check and node-facts came). */
    @Test
    void noSubcommandNamesEveryOne() {
        CliRun r = CliRun.of();
        assertEquals(ExitCodes.USAGE, r.code());
        assertEquals("pcapdiag: a subcommand is required: analyze, live, check, node-facts, collect or schema\n", r.err());
    }

    @Test
    void missingFileIsOneLineAndExit3() {
        String missing = dir.resolve("nope.pcap").toString();
        CliRun r = CliRun.of("analyze", missing);
        assertEquals(ExitCodes.NO_INPUT, r.code());
        assertEquals("pcapdiag: " + missing + ": no such file\n", r.err());
    }

    @Test
    void directoryEmptyAndGarbageAreRejectedNamingFileAndOffset() throws IOException {
        Path empty = Files.write(dir.resolve("empty.pcap"), new byte[0]);
        Path garbage = Files.write(dir.resolve("garbage.pcap"), "hello, not a capture".getBytes());
        Path shortHeader = Files.write(dir.resolve("short.pcap"), new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0});
        CliRun r = CliRun.of("analyze", dir.toString(), empty.toString(), garbage.toString(), shortHeader.toString());
        assertEquals(ExitCodes.NO_INPUT, r.code());
        String[] lines = r.err().split("\n");
        assertEquals(4, lines.length, r.err());
        assertEquals("pcapdiag: " + dir + ": is a directory, not a capture file", lines[0]);
        assertEquals("pcapdiag: " + empty + ": offset 0: empty file: no pcap or pcapng header", lines[1]);
        assertTrue(lines[2].startsWith("pcapdiag: " + garbage + ": offset 0: unknown file format (magic 0x68656c6c)"), lines[2]);
        assertEquals("pcapdiag: " + shortHeader + ": offset 0: truncated pcap file header: 6 of 24 bytes", lines[3]);
    }

    @Test
    void aBadFileDoesNotCostTheOthers() throws IOException {
        Path good = Files.write(dir.resolve("good.pcap"), refusedPcap());
        Path bad = Files.write(dir.resolve("bad.pcap"), new byte[] {1, 2, 3, 4, 5});
        CliRun r = CliRun.of("analyze", "--color", "never", bad.toString(), good.toString());
        assertEquals(ExitCodes.OK, r.code(), r.err());
        assertTrue(r.err().startsWith("pcapdiag: " + bad + ": offset 0: unknown file format"), r.err());
        assertTrue(r.out().contains("WARNING connection-refused"), r.out());
        assertTrue(r.out().contains("10.0.0.1 -> 10.0.0.2:80, answered by 10.0.0.2:80, 1 attempt"), r.out());
    }

    @Test
    void cutOffRecordKeepsTheFramesBeforeItAndCountsTheSkip() throws IOException {
        byte[] whole = refusedPcap();
        byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 10);
        Path p = Files.write(dir.resolve("cut.pcap"), cut);
        CliRun r = CliRun.of("analyze", "--format", "json", p.toString());
        assertEquals(ExitCodes.OK, r.code());
        assertEquals("pcapdiag: " + p + ": offset 94: record of 54 bytes cut off: needs 70 bytes, the file ends after 60\n", r.err());
        assertTrue(r.out().contains("\"packets\" : 1,"), r.out());
        assertTrue(r.out().contains("\"skipped_records\" : 1,"), r.out());
    }

    @Test
    void failOnGatesCiAndStdinIsReadWithDash() {
        InputStream saved = System.in;
        try {
            System.setIn(new ByteArrayInputStream(refusedPcap()));
            CliRun r = CliRun.of("analyze", "--fail-on", "warning", "-");
            assertEquals(ExitCodes.FINDINGS, r.code(), r.err());
            // The table of findings (its header, one line, a blank line), then the capture's line.
            assertTrue(r.out().lines().skip(3).findFirst().orElse("").startsWith("-: 2 packets (EN10MB), 1 attempt: 1 refused"),
                    r.out());
            System.setIn(new ByteArrayInputStream(refusedPcap()));
            assertEquals(ExitCodes.OK, CliRun.of("analyze", "--fail-on", "error", "-").code());
        } finally {
            System.setIn(saved);
        }
    }

    /**
     * Every way picocli can refuse a command line, in every command, is one line in pcapdiag's words and exit 2: the
     * usage text (60 lines) came with each of them; it is for --help.
     */
    @Test
    void badCommandLinesAreOneLineWithoutTheUsage() {
        String[][] cases = {
            {"analyze --bogus x.pcap", "unknown option --bogus: pcapdiag analyze --help lists the options"},
            {"analyze --formt json x.pcap", "unknown option --formt (did you mean --format?): pcapdiag analyze --help lists the options"},
            {"analyze --format xml x.pcap", "--format takes text, json, jsonl or summary, not 'xml'"},
            {"analyze -o yaml x.pcap", "--format takes text, json, jsonl or summary, not 'yaml'"},
            {"analyze --max-findings many x.pcap", "--max-findings takes a whole number, not 'many'"},
            {"analyze --cluster", "--cluster needs a value: --cluster PATH"},
            {"analyze -r", "-r needs a value: -r FILE"},
            {"analyze", "analyze needs a capture: analyze FILE..., or -r FILE"},
            {"analyze --service web x.pcap", "--service takes NAMESPACE/NAME, not 'web'"},
            {"analyze --pod default/a/b x.pcap", "--pod takes NAMESPACE/NAME, not 'default/a/b'"},
            {"analyze --service default/web x.pcap", "--service needs --cluster: only a cluster snapshot names Services and"
                + " pods (--host takes addresses)"},
            {"analyze --host 10.0.0.0/33 x.pcap", "--host takes IP or IP/LENGTH (0-32), not '10.0.0.0/33'"},
            {"analyze --host 2001:db8::/129 x.pcap", "--host takes IP or IP/LENGTH (0-128), not '2001:db8::/129'"},
            {"analyze --host cluster.local x.pcap", "not an IP address: cluster.local"},
            {"check --bogus", "unknown option --bogus: pcapdiag check --help lists the options"},
            {"check -j x", "--jobs takes a whole number, not 'x'"},
            {"live --bogus", "unknown option --bogus: pcapdiag live --help lists the options"},
            {"live -o xml", "--format takes text, json, jsonl or summary, not 'xml'"},
            {"node-facts --bogus", "unknown option --bogus: pcapdiag node-facts --help lists the options"},
            {"node-facts eth0", "unexpected argument eth0: pcapdiag node-facts --help says what node-facts takes"},
            {"frobnicate", "unknown command frobnicate: pcapdiag --help lists the commands"},
            {"anlyze x.pcap", "unknown command anlyze (did you mean analyze?): pcapdiag --help lists the commands"},
        };
        for (String[] c : cases) {
            CliRun r = CliRun.of(c[0].split(" "));
            assertEquals(ExitCodes.USAGE, r.code(), c[0] + ": " + r.err());
            assertEquals("pcapdiag: " + c[1] + "\n", r.err(), c[0]);
            assertEquals("", r.out(), c[0]);
        }
    }

    /** tcpdump's -r and kubectl's -o read as the long options do. */
    @Test
    void tcpdumpsReadAndKubectlsOutputOptions() {
        String capture = "captures/closed-port/any.pcap";
        CliRun longForm = CliRun.of("analyze", "--format", "json", capture);
        CliRun shortForm = CliRun.of("analyze", "-o", "json", "-r", capture);
        assertEquals(ExitCodes.OK, shortForm.code(), shortForm.err());
        assertEquals(longForm.out(), shortForm.out());
        CliRun two = CliRun.of("analyze", "-o", "jsonl", "-r", capture, "captures/closed-port/cni0.pcap");
        assertTrue(two.out().contains("\"file\" : \"" + capture + "\"") || two.out().contains("\"file\":\"" + capture + "\""),
                two.out());
        assertTrue(two.out().contains("captures/closed-port/cni0.pcap"), two.out());
    }

    @Test
    void usageErrorsExit2() {
        assertEquals(ExitCodes.USAGE, CliRun.of("analyze").code());
        assertEquals(ExitCodes.USAGE, CliRun.of("analyze", "--fail-on", "sometimes", "x.pcap").code());
        assertEquals(ExitCodes.USAGE, CliRun.of("analyze", "--reader", "wireshark", "x.pcap").code());
        assertEquals(ExitCodes.USAGE, CliRun.of("frobnicate").code());
        CliRun help = CliRun.of("analyze", "--help");
        assertEquals(ExitCodes.OK, help.code());
        assertTrue(help.out().contains("Exit codes:") && help.out().contains("3   no input could be read"), help.out());
    }
}
