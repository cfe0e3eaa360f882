package io.pcapdiag.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.capture.Libpcap;
import io.pcapdiag.cli.ExitCodes;
import io.pcapdiag.cli.Main;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pcapdiag live} as a user meets it: options, the one-line errors, and a short run on loopback. */
class LiveCommandTest {
    @Test
    void durationsAndSizes() {
        assertEquals(30_000_000_000L, Units.nanos("--duration", "30s", false));
        assertEquals(30_000_000_000L, Units.nanos("--duration", "30", false));
        assertEquals(500_000_000L, Units.nanos("--duration", "500ms", false));
        assertEquals(300_000_000_000L, Units.nanos("--duration", "5m", false));
        assertEquals(5_400_000_000_000L, Units.nanos("--duration", "1.5h", false));
        assertEquals(0L, Units.nanos("--duration", "0", false));
        assertThrows(IllegalArgumentException.class, () -> Units.nanos("--rescan-interval", "0", true));
        assertThrows(IllegalArgumentException.class, () -> Units.nanos("--duration", "soon", false));
        assertEquals(4L << 20, Units.bytes("--buffer-size", "4MiB"));
        assertEquals(512L << 10, Units.bytes("--buffer-size", "512k"));
        assertEquals(1L << 30, Units.bytes("--buffer-size", "1G"));
        assertEquals(65536L, Units.bytes("--buffer-size", "65536"));
        assertThrows(IllegalArgumentException.class, () -> Units.bytes("--buffer-size", "lots"));
    }

    @Test
    void usageErrorsAreOneLineAndExit2() {
        for (String[] args : List.of(
                new String[] {"live", "--snaplen", "10"},
                new String[] {"live", "-i", "any,eth0"},
                new String[] {"live", "--buffer-size", "1k"},
                new String[] {"live", "--duration", "soon"},
                new String[] {"live", "--format", "xml"},
                new String[] {"live", "--metrics-port", "70000"},
                new String[] {"live", "--write", "/nonexistent-dir/x.pcap"})) {
            CliRun r = CliRun.of(args);
            assertEquals(ExitCodes.USAGE, r.code(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().startsWith("pcapdiag: ") || r.err().contains("Invalid value"), r.err());
        }
    }

    /** Each way live can fail to start says its own true line (not "matches none of this host's interfaces"). */
    @Test
    void eachStartProblemSaysItsOwnLine(@TempDir Path dir) throws Exception {
        if (Privileges.lacksNetRaw()) {
            skipUnlessCi("opening lo needs CAP_NET_RAW");
        }
        CliRun v = CliRun.of("live", "-V");
        assertEquals(0, v.code());
        assertTrue(v.out().startsWith("pcapdiag "), v.out());
        assertTrue(v.out().contains("libpcap version "), "like tcpdump --version: " + v.out());

        CliRun filter = CliRun.of("live", "-i", "lo", "--no-node-facts", "--filter", "tcp and and");
        assertEquals(ExitCodes.USAGE, filter.code(), filter.err());
        assertEquals("pcapdiag: --filter 'tcp and and': libpcap cannot compile it: can't parse filter expression: syntax error",
                filter.err().strip());

        CliRun missing = CliRun.of("live", "-i", "nosuch0", "--no-node-facts", "--duration", "1s");
        assertEquals(ExitCodes.NO_INPUT, missing.code(), missing.err());
        assertEquals("pcapdiag: no such interface: nosuch0 (ip link shows this host's interfaces)", missing.err().strip());

        Path exists = Files.writeString(dir.resolve("exists.pcap"), "keep me");
        CliRun kept = CliRun.of("live", "-i", "lo", "--no-node-facts", "--duration", "1s", "--write", exists.toString());
        assertEquals(ExitCodes.NO_INPUT, kept.code(), kept.err());
        assertEquals("pcapdiag: cannot write lo's packets: " + exists + " exists: not overwriting it (--force to overwrite)",
                kept.err().strip());
        assertEquals("keep me", Files.readString(exists), "never truncated without --force");

        Path target = Files.writeString(dir.resolve("shadow"), "not yours");
        Path link = Files.createSymbolicLink(dir.resolve("link.pcap"), target);
        for (String[] extra : List.of(new String[0], new String[] {"--force"})) {
            List<String> args = new java.util.ArrayList<>(List.of("live", "-i", "lo", "--no-node-facts", "--duration", "1s",
                    "--write", link.toString()));
            args.addAll(List.of(extra));
            CliRun l = CliRun.of(args.toArray(String[]::new));
            assertEquals(ExitCodes.NO_INPUT, l.code(), l.err());
            assertEquals("pcapdiag: cannot write lo's packets: " + link + " is a symbolic link: refusing to write through it",
                    l.err().strip());
            assertEquals("not yours", Files.readString(target), "a symbolic link is never followed, --force or not");
        }
    }

    @Test
    void helpListsTheExitCodes() {
        CliRun r = CliRun.of("live", "--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("3   no interface could be captured"), r.out());
        assertTrue(r.out().contains("--promiscuous"));
        assertTrue(r.out().contains("--established"));
    }

    /**
     * {@code --established} on loopback: one connection carrying data each way, captured once without the option and
     * once with it. Its SYN and FIN are written both times; its pure ACKs and data segments only with it.
     */
    @Test
    void establishedCapturesTheSegmentsBetweenHandshakeAndClose(@TempDir Path dir) throws Exception {
        if (Privileges.lacksNetRaw()) {
            skipUnlessCi("capturing needs CAP_NET_RAW");
        }
        for (boolean established : new boolean[] {false, true}) {
            Path file = dir.resolve("lo-" + established + ".pcap");
            int port;
            try (ServerSocket server = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = server.getLocalPort();
                Thread peers = new Thread(() -> exchange(server));
                peers.start();
                List<String> args = new java.util.ArrayList<>(List.of("live", "-i", "lo", "--duration", "4s", "--no-node-facts",
                        "--watch-cluster", "off", "--summary-interval", "0", "--format", "jsonl", "--write", file.toString()));
                if (established) {
                    args.add("--established");
                }
                CliRun r = CliRun.of(args.toArray(String[]::new));
                peers.join();
                assertEquals(0, r.code(), r.err());
            }
            String mine = "tcp port " + port;
            String noSynRstFin = " and tcp[tcpflags] & (tcp-syn|tcp-rst|tcp-fin) == 0";
            String payload = "(ip[2:2] - ((ip[0] & 0xf) << 2) - ((tcp[12] & 0xf0) >> 2))";
            String what = established ? "with --established" : "without --established";
            assertTrue(count(file, mine + " and tcp[tcpflags] & tcp-syn != 0") >= 2, "SYN and SYN-ACK " + what);
            assertTrue(count(file, mine + " and tcp[tcpflags] & tcp-fin != 0") >= 2, "both FINs " + what);
            long pureAcks = count(file, mine + noSynRstFin + " and " + payload + " == 0");
            long data = count(file, mine + noSynRstFin + " and " + payload + " > 0");
            if (established) {
                assertTrue(pureAcks >= 1 && data >= 2, pureAcks + " pure ACKs, " + data + " data segments " + what);
            } else {
                assertEquals(0, pureAcks + data, pureAcks + " pure ACKs, " + data + " data segments " + what);
            }
        }
    }

    /** After live has started: a client sends 10 kB and closes its side, the server answers 5 kB and closes. */
    private static void exchange(ServerSocket server) {
        try {
            Thread.sleep(1500);
            try (Socket client = new Socket(java.net.InetAddress.getLoopbackAddress(), server.getLocalPort());
                 Socket accepted = server.accept()) {
                client.getOutputStream().write(new byte[10_000]);
                client.shutdownOutput();
                accepted.getInputStream().readAllBytes();
                accepted.getOutputStream().write(new byte[5_000]);
                accepted.shutdownOutput();
                client.getInputStream().readAllBytes();
            }
        } catch (IOException | InterruptedException e) {
            // The counts will tell.
        }
    }

    /** Packets of a pcap file that a libpcap filter passes. */
    private static long count(Path file, String filter) throws Exception {
        org.pcap4j.core.PcapHandle h = org.pcap4j.core.Pcaps.openOffline(file.toString());
        try {
            h.setFilter(filter, org.pcap4j.core.BpfProgram.BpfCompileMode.OPTIMIZE);
            long n = 0;
            while (true) {
                try {
                    h.getNextRawPacketEx();
                    n++;
                } catch (java.io.EOFException end) {
                    return n;
                }
            }
        } finally {
            h.close();
        }
    }

    /** A short capture on loopback that stops by itself after --count packets (root or CAP_NET_RAW). */
    @Test
    void countStopsTheCaptureAndTheReportFollows(@TempDir Path dir) throws Exception {
        if (Privileges.lacksNetRaw()) {
            skipUnlessCi("capturing needs CAP_NET_RAW");
        }
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        int port = closed;
        Thread dialer = new Thread(() -> {
            try {
                Thread.sleep(1500);
                for (int i = 0; i < 5; i++) {
                    try (Socket c = new Socket()) {
                        c.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                    } catch (ConnectException expected) {
                        // Refused: that is the point.
                    }
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException e) {
                // The test's assertions will tell.
            }
        });
        dialer.start();
        Path file = dir.resolve("lo.pcap");
        CliRun r = CliRun.of("live", "-i", "lo", "--count", "2", "--format", "jsonl", "--duration", "20s",
                "--write", file.toString(), "--filter", "tcp port " + port);
        dialer.join();
        assertEquals(0, r.code(), r.err());
        List<String> lines = r.out().lines().toList();
        JsonNode report = new ObjectMapper().readTree(lines.get(lines.size() - 1));
        assertEquals("report", report.get("event").asText());
        assertEquals(2, report.get("interfaces").get(0).get("packets").asInt(), "--count 2: the SYN and its RST");
        JsonNode last = new ObjectMapper().readTree(lines.stream().filter(l -> l.contains("\"final\":true")).findFirst().orElseThrow());
        assertEquals("connection-refused", last.get("pattern").asText());
        assertEquals("127.0.0.1:" + port, last.get("target").asText());
        CliRun offline = CliRun.of("analyze", "--format", "json", file.toString());
        assertEquals(0, offline.code(), offline.err());
        assertEquals(1, new ObjectMapper().readTree(offline.out()).get("findings").size());
    }

    @Test
    void withoutCapNetRawOneLineSaysWhatToDo() throws Exception {
        // capsh (libcap2-bin) drops the capability; without it there is no way to test this, in CI or not.
        if (!Path.of("/usr/sbin/capsh").toFile().canExecute() && !Path.of("/sbin/capsh").toFile().canExecute()) {
            skipUnlessCi("capsh (libcap2-bin) is not installed; scripts/test installs it");
        }
        if (Privileges.lacksNetRaw()) {
            skipUnlessCi("this test drops CAP_NET_RAW, so it must start with it");
        }
        List<String> java = java();
        String cmd = "'" + java.get(0) + "' -cp '" + java.get(2) + "' io.pcapdiag.cli.Main live -i lo";
        Run r = run(List.of("capsh", "--drop=cap_net_raw", "--", "-c", cmd));
        assertEquals(ExitCodes.NO_INPUT, r.code, r.err);
        assertEquals("pcapdiag: " + Privileges.NO_CAPTURE_PRIVILEGE, r.err.strip());
    }

    /**
     * The DaemonSet adds NET_RAW only: capture (promiscuous mode asked for too) works with CAP_NET_ADMIN out of the
     * bounding set. In a network namespace of its own (unshare -n), a refused connection on its loopback is found.
     */
    @Test
    @org.junit.jupiter.api.Tag("slow")
    void captureNeedsNetRawButNotNetAdmin() throws Exception {
        if (Privileges.lacksNetRaw() || !"root".equals(System.getProperty("user.name"))) {
            skipUnlessCi("this test needs root (a network namespace of its own) to drop CAP_NET_ADMIN from");
        }
        Run caps = run(List.of("setpriv", "--bounding-set=-net_admin", "grep", "CapEff", "/proc/self/status"));
        long eff = Long.parseUnsignedLong(caps.out.strip().substring("CapEff:".length()).strip(), 16);
        assertEquals(0, eff & (1L << Privileges.CAP_NET_ADMIN), "setpriv dropped NET_ADMIN: " + caps.out);
        assertTrue((eff & (1L << Privileges.CAP_NET_RAW)) != 0, caps.out);
        List<String> java = java();
        String script = "ip link set lo up; setpriv --bounding-set=-net_admin '" + java.get(0) + "' -cp '" + java.get(2)
                + "' io.pcapdiag.cli.Main live -i lo --promiscuous --duration 6s --format jsonl --no-node-facts"
                + " --watch-cluster off --summary-interval 0 & pid=$!; sleep 3;"
                + " for i in 1 2; do (exec 3<>/dev/tcp/127.0.0.1/9) 2>/dev/null; done; wait $pid";
        Run r = run(List.of("unshare", "-n", "bash", "-c", script));
        assertEquals(0, r.code, r.err);
        assertTrue(r.out.contains("\"event\":\"finding\",") && r.out.contains("\"pattern\":\"connection-refused\"")
                && r.out.contains("\"target\":\"127.0.0.1:9\""), r.out + r.err);
    }

    @Test
    void withoutLibpcapOneLineSaysWhatToInstall() throws Exception {
        List<String> cmd = new java.util.ArrayList<>(java());
        // pcap4j loads the library named by this property: point it at nothing.
        cmd.add(1, "-Dorg.pcap4j.core.pcapLibName=/nonexistent/libpcap.so");
        cmd.addAll(List.of("io.pcapdiag.cli.Main", "live", "-i", "lo"));
        Run r = run(cmd);
        if (Privileges.lacksNetRaw()) {
            assertEquals("pcapdiag: " + Privileges.NO_CAPTURE_PRIVILEGE, r.err.strip());
            return;
        }
        assertEquals(ExitCodes.NO_INPUT, r.code, r.err);
        assertEquals("pcapdiag: " + Libpcap.MISSING, r.err.strip());
    }

    private record Run(int code, String out, String err) {
    }

    /** The real CLI in-process. */
    private record CliRun(int code, String out, String err) {
        static CliRun of(String... args) {
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            int code = Main.run(args, new java.io.PrintWriter(out), new java.io.PrintWriter(err));
            return new CliRun(code, out.toString(), err.toString());
        }
    }

    private static Run run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("did not end: " + cmd);
        }
        return new Run(p.exitValue(), out, err);
    }

    /** java with this test's class path (the classes under test and their dependencies). */
    private static List<String> java() throws IOException {
        String bin = ProcessHandle.current().info().command().orElse("java");
        return List.of(bin, "-cp", String.join(File.pathSeparator, NamespaceSupport.testClassPath()));
    }

    private static void skipUnlessCi(String why) {
        if (NamespaceSupport.inCi()) {
            fail("this test must run in CI, but " + why);
        }
        Assumptions.abort(why);
    }
}
