package io.pcapdiag.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureException;
import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.capture.Frame;
import io.pcapdiag.capture.FrameSource;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tunnel decoding against tcpdump on the corpus's VXLAN and Geneve captures and on every lab recording (the
 * cross-node ones with the pods' traffic inside VXLAN on port 8472): for every frame, the innermost TCP
 * segment pcapdiag decodes (addresses, ports, flags) is the one tcpdump -nn prints last on that packet's lines, and
 * pcapdiag decodes one exactly where tcpdump prints one. The only frames allowed to differ are those tcpdump 4.99
 * cannot read (BIG TCP: an IPv4 total length or IPv6 payload length of 0, where it prints "bad-len 0" or "[|udp]" and
 * pcapdiag trusts the captured length) are checked against the output of tcpdump's own test suite instead.
 */
class TunnelCorpusTest {
    private static final Pattern TCP = Pattern.compile("IP6? ([0-9a-f:.]+)\\.(\\d+) > ([0-9a-f:.]+)\\.(\\d+): Flags \\[([^\\]]*)\\]");
    private static final Pattern STAMP = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{6} ");

    static Stream<String> captures() throws IOException {
        Path corpus = CaptureFilesOnDisk.corpusDir();
        List<String> names = new ArrayList<>();
        for (String dir : List.of("tcpdump/tests", "zeek/testing/btest/Traces/tunnels")) {
            Path d = corpus.resolve(dir);
            if (!Files.isDirectory(d)) {
                continue;
            }
            try (Stream<Path> s = Files.list(d)) {
                s.map(p -> corpus.relativize(p).toString())
                        .filter(n -> n.matches(".*(vxlan|geneve)[^/]*\\.pcap(ng)?$") && !n.contains("vxlan-gpe"))
                        .sorted().forEach(names::add);
            }
        }
        if (names.isEmpty()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("the tunnel captures of ../shared/corpus must be there in CI");
            }
            Assumptions.abort("no corpus");
        }
        // And every lab recording: the cross-node ones carry the pods' traffic inside VXLAN on port 8472.
        Path project = CaptureFilesOnDisk.projectDir();
        try (Stream<Path> s = Files.walk(project.resolve("captures"), 2)) {
            s.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().matches(".*\\.pcap(ng)?$"))
                    .map(p -> project.relativize(p).toString()).sorted().forEach(names::add);
        }
        return names.stream();
    }

    /** A corpus capture by its path under ../shared/corpus, a lab recording by its path under captures/. */
    private static Path file(String name) {
        return name.startsWith("captures/") ? CaptureFilesOnDisk.projectDir().resolve(name)
                : CaptureFilesOnDisk.corpusDir().resolve(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void innermostTcpEqualsTcpdumps(String name) throws Exception {
        Path file = file(name);
        Map<Long, String> tcpdump = new TreeMap<>();
        List<Long> badLen = new ArrayList<>();
        Process p;
        try {
            p = new ProcessBuilder("tcpdump", "-nn", "-r", file.toString()).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("tcpdump must be installed in CI (scripts/test installs it)");
            }
            Assumptions.abort("no tcpdump");
            return;
        }
        long frame = 0;
        StringBuilder packet = null;
        for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
            if (STAMP.matcher(line).find()) {
                if (packet != null) {
                    record(frame, packet.toString(), tcpdump, badLen);
                }
                frame++;
                packet = new StringBuilder(line);
            } else if (packet != null) {
                packet.append(' ').append(line);
            }
        }
        if (packet != null) {
            record(frame, packet.toString(), tcpdump, badLen);
        }
        p.waitFor();

        Map<Long, String> ours = new TreeMap<>();
        Map<Long, String> tcpdumpText = new TreeMap<>();
        long frames = 0;
        int tunneled = 0;
        try (FrameSource s = CaptureFiles.open(new Capture(0, file.toString()))) {
            Decoder d = new Decoder();
            PacketView v = new PacketView();
            Frame f;
            while ((f = s.next()) != null) {
                frames++;
                if (d.decode(f, v) == PacketView.Kind.TCP) {
                    tcpdumpText.put(f.number, Ip.dotted(v.srcHi, v.srcLo, v.srcPort) + " > "
                            + Ip.dotted(v.dstHi, v.dstLo, v.dstPort) + ": Flags [" + flags(v.flags) + "]");
                    ours.put(f.number, tuple(Ip.format(v.srcHi, v.srcLo), v.srcPort, Ip.format(v.dstHi, v.dstLo), v.dstPort,
                            flags(v.flags)));
                    if (v.tunnelType != PacketView.TUNNEL_NONE) {
                        tunneled++;
                    }
                }
            }
        } catch (CaptureException e) {
            // a capture cut on purpose: the frames before the cut are compared
        }
        assertEquals(frame, frames, "tcpdump and pcapdiag read as many frames");
        // Frames this tcpdump cannot read (BIG TCP): their segment must be the one tcpdump's own test suite, run with
        // a newer tcpdump, prints for this capture (the .out file beside it).
        Path out = file.resolveSibling(file.getFileName().toString().replaceAll("\\.pcap(ng)?$", ".out"));
        String expected = Files.isRegularFile(out) ? Files.readString(out, StandardCharsets.UTF_8) : "";
        for (Long bad : badLen) {
            String segment = tcpdumpText.remove(bad);
            ours.remove(bad);
            if (segment != null) {
                assertTrue(expected.contains(segment), "frame " + bad + ": " + segment + " is not in " + out);
            }
        }
        assertEquals(tcpdump, ours, "innermost TCP per frame");
        // The corpus captures are chosen for their tunnels; of the lab's, each cross-node view that holds a node's eth0.
        if (!name.startsWith("captures/") || (name.contains("/cross-node-") && !name.endsWith("/pod-eth0.pcap"))) {
            assertTrue(tcpdump.isEmpty() || tunneled > 0, "the segments compared came out of a tunnel");
        }
    }

    private static void record(long frame, String text, Map<Long, String> into, List<Long> badLen) throws IOException {
        if (text.contains("bad-len 0") || text.contains("[|udp]")) {
            badLen.add(frame);
            return;
        }
        Matcher m = TCP.matcher(text);
        String last = null;
        while (m.find()) {
            last = tuple(m.group(1), Integer.parseInt(m.group(2)), m.group(3), Integer.parseInt(m.group(4)), m.group(5));
        }
        if (last != null) {
            into.put(frame, last);
        }
    }

    private static String tuple(String src, int sport, String dst, int dport, String flags) throws IOException {
        return InetAddress.getByName(src).getHostAddress() + "." + sport + " > " + InetAddress.getByName(dst).getHostAddress()
                + "." + dport + " [" + flags + "]";
    }

    /** tcpdump's notation: F S R P, then . for ACK, U E W; "none" for no flag. */
    private static String flags(int f) {
        StringBuilder sb = new StringBuilder();
        String[] names = {"F", "S", "R", "P", ".", "U", "E", "W"};
        int[] bits = {PacketView.FIN, PacketView.SYN, PacketView.RST, PacketView.PSH, PacketView.ACK, PacketView.URG,
                PacketView.ECE, PacketView.CWR};
        for (int i = 0; i < bits.length; i++) {
            if ((f & bits[i]) != 0) {
                sb.append(names[i]);
            }
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }
}
