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
import io.pcapdiag.testing.PcapWriter;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fields path MTU discovery's evidence is read from, against Wireshark's dissectors ({@code tshark -T fields}),
 * frame by frame: {@link PacketView#tcpMss} is {@code tcp.options.mss_val} on a SYN (the last, if several) and -1 on
 * every other frame (an MSS option elsewhere is not read, and an ICMP error's quoted SYN is not the error's);
 * {@link PacketView#icmpMtu} is {@code icmp.mtu} or {@code icmpv6.mtu}, -1 where neither is; and where pcapdiag reads
 * a quoted IP header, {@link PacketView#quotedLength} is the last {@code ip.len} (or {@code ipv6.plen} + 40). On every
 * lab capture (VXLAN on flannel's port 8472 decoded as the report tells the user), and on {@link MtuFixtures}' frames
 * written as a capture.
 */
class TsharkFieldsTest {
    private static final String[] FIELDS = {"frame.number", "tcp.flags.syn", "tcp.options.mss_val", "icmp.type", "icmpv6.type",
            "icmp.mtu", "icmpv6.mtu", "ip.len", "ipv6.plen"};

    /** What the comparison covered, to print and to hold to a minimum. */
    private static final class Tally {
        int captures;
        long frames;
        long mss;
        long mtu;
        long quoted;
        final Map<String, String> disagreements = new TreeMap<>();

        @Override
        public String toString() {
            return "tcpMss, icmpMtu, quotedLength against tshark: " + captures + " captures, " + frames + " frames, " + mss
                    + " SYNs with MSS, " + mtu + " errors with an MTU, " + quoted + " quoted lengths, " + disagreements.size()
                    + " disagreements" + (disagreements.isEmpty() ? "" : ": " + disagreements);
        }
    }

    @Test
    @Tag("slow")
    void labCaptures() throws Exception {
        requireTshark();
        List<Path> captures = CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir().resolve("captures"));
        Tally t = new Tally();
        // Each distinct capture once: the context directories link to their scenario's, and a few are the same bytes.
        Set<String> seen = new HashSet<>();
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (Path p : captures) {
            if (seen.add(HexFormat.of().formatHex(sha.digest(Files.readAllBytes(p))))) {
                compare(p, CaptureFilesOnDisk.projectDir().relativize(p).toString(), t);
            }
        }
        System.out.println(t);
        assertTrue(t.captures > 100, "only " + t.captures + " captures");
        // SYNs with MSS 1460 in every TCP scenario; 16 ICMP "need to frag (mtu 1450)" in each of
        // captures/pmtu-blackhole/node-b-any.pcap and node-b-multi.pcapng.
        assertTrue(t.mss > 500 && t.mtu >= 32 && t.quoted > 100, t::toString);
        assertEquals(Map.of(), t.disagreements, t::toString);
    }

    @Test
    void fixtures(@TempDir Path dir) throws Exception {
        requireTshark();
        PcapWriter w = PcapWriter.micro(ByteOrder.LITTLE_ENDIAN).linkType(MtuFixtures.LINK_TYPE);
        long nanos = 1_700_000_000_000_000_000L;
        for (MtuFixtures.Segment s : MtuFixtures.segments()) {
            w.packet(nanos += 1_000_000, Arrays.copyOf(s.packet(), s.capLen()), s.packet().length);
        }
        for (MtuFixtures.IcmpError e : MtuFixtures.icmp()) {
            w.packet(nanos += 1_000_000, Arrays.copyOf(e.packet(), e.capLen()), e.packet().length);
        }
        Path file = dir.resolve("mtu-fixtures.pcap");
        Files.write(file, w.toByteArray());
        Tally t = new Tally();
        compare(file, "fixtures", t);
        System.out.println(t);
        assertEquals(MtuFixtures.segments().size() + MtuFixtures.icmp().size(), t.frames);
        assertTrue(t.mss >= 15 && t.mtu >= 10, t::toString);
        assertEquals(Map.of(), t.disagreements, t::toString);
    }

    private static void requireTshark() {
        if (!onPath("tshark")) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("tshark is not installed (scripts/test installs it)");
            }
            Assumptions.abort("tshark is not installed");
        }
    }

    private static void compare(Path file, String name, Tally t) throws Exception {
        Map<Long, String> theirs = tshark(file);
        Map<Long, String> ours = new TreeMap<>();
        try (FrameSource s = CaptureFiles.open(new Capture(0, file.toString()))) {
            Decoder d = new Decoder();
            PacketView v = new PacketView();
            Frame f;
            while ((f = s.next()) != null) {
                d.decode(f, v);
                String quoted = v.quotedVersion == 0 ? "" : Integer.toString(v.quotedLength);
                ours.put(f.number, v.tcpMss + " " + v.icmpMtu + " " + quoted);
                t.mss += v.tcpMss >= 0 ? 1 : 0;
                t.mtu += v.icmpMtu >= 0 ? 1 : 0;
                t.quoted += quoted.isEmpty() ? 0 : 1;
            }
        } catch (CaptureException e) {
            // a capture cut on purpose: the frames before the cut are compared
        }
        t.captures++;
        t.frames += ours.size();
        assertEquals(theirs.size(), ours.size(), name + ": tshark and pcapdiag read as many frames");
        for (Map.Entry<Long, String> e : ours.entrySet()) {
            String expected = theirs.get(e.getKey());
            String mine = e.getValue();
            // The quoted length is compared where pcapdiag reads a quoted header: tshark's last ip.len is another
            // packet's where there is none.
            if (mine.endsWith(" ")) {
                expected = expected.substring(0, expected.lastIndexOf(' ') + 1);
            }
            if (!mine.equals(expected)) {
                t.disagreements.put(name + " #" + e.getKey(), "tshark \"" + expected + "\", pcapdiag \"" + mine + "\"");
            }
        }
    }

    /** Per frame, what pcapdiag must make of it by tshark's dissection: "mss mtu quotedLength" (see the class). */
    private static Map<Long, String> tshark(Path file) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString(), "-d", "udp.port==8472,vxlan",
                "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=,"));
        for (String f : FIELDS) {
            cmd.addAll(List.of("-e", f));
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
        Map<Long, String> frames = new TreeMap<>();
        for (String line : out.lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = Arrays.copyOf(line.split("\t", -1), FIELDS.length);
            boolean icmp = !empty(f[3]) || !empty(f[4]);
            boolean syn = !icmp && (last(f[1]).equals("1") || last(f[1]).equalsIgnoreCase("true"));
            String mss = syn && !empty(f[2]) ? last(f[2]) : "-1";
            String mtu = !empty(f[5]) ? last(f[5]) : !empty(f[6]) ? last(f[6]) : "-1";
            // The quoted header is the last of its family's (after a tunnel's outer header and the error's own).
            String quoted = !empty(f[4]) && !empty(f[8]) ? Integer.toString(Integer.parseInt(last(f[8])) + 40)
                    : !empty(f[3]) && !empty(f[7]) ? last(f[7]) : "";
            frames.put(Long.parseLong(f[0].trim()), mss + " " + mtu + " " + quoted);
        }
        return frames;
    }

    private static boolean empty(String field) {
        return field == null || field.isEmpty();
    }

    private static String last(String field) {
        return field == null ? "" : field.substring(field.lastIndexOf(',') + 1);
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
