package io.pcapdiag.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URLClassLoader;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark trace must be reproducible, readable by tcpdump, and hold exactly the failures
 * its planted.json promises. The capture is re-read here with a tiny independent reader and the
 * planted attempts are re-derived from the packets with docs/design.md's attempt rules. The generator
 * lives with the benchmark (scripts/bench.d/NodeTraceGenerator.java); it is compiled from there, as
 * scripts/bench compiles it.
 */
class NodeTraceGeneratorTest {
    private static Method main;
    private static String[] patterns;

    @BeforeAll
    static void compileTheGenerator(@TempDir Path classes) throws Exception {
        Path src = Path.of(System.getProperty("pcapdiag.project.dir", ".")).resolve("scripts/bench.d/NodeTraceGenerator.java");
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "javac " + src);
        URLClassLoader loader = new URLClassLoader(new java.net.URL[] {classes.toUri().toURL()},
                NodeTraceGeneratorTest.class.getClassLoader());
        Class<?> gen = loader.loadClass("io.pcapdiag.bench.NodeTraceGenerator");
        main = gen.getMethod("main", String[].class);
        java.lang.reflect.Field f = gen.getDeclaredField("PATTERNS");
        f.setAccessible(true);
        patterns = (String[]) f.get(null);
    }

    private static final long SMALL = 20_000;

    @TempDir
    Path dir;

    @Test
    void sameSeedGivesByteIdenticalFiles() throws IOException {
        Path a = generate("a.pcap", "--seed", "7", "--packets", String.valueOf(SMALL));
        Path b = generate("b.pcap", "--seed", "7", "--packets", String.valueOf(SMALL));
        Path c = generate("c.pcap", "--seed", "8", "--packets", String.valueOf(SMALL));

        assertEquals(-1, Files.mismatch(a, b), "same seed, different pcap bytes");
        assertEquals(-1, Files.mismatch(planted(a), planted(b)), "same seed, different planted.json");
        assertNotEquals(-1, Files.mismatch(a, c), "different seeds, same bytes");
    }

    @Test
    void headersAreValidForTcpdump() throws IOException {
        Path pcap = generate("node.pcap", "--seed", "3", "--packets", String.valueOf(SMALL));
        Capture capture = Capture.read(pcap, true);

        assertTrue(capture.packets >= SMALL, "packets: " + capture.packets);
        assertEquals(Files.size(pcap), capture.bytes);
        double v4Share = (double) capture.v4Syns / (capture.v4Syns + capture.v6Syns);
        assertTrue(v4Share > 0.7 && v4Share < 0.9, "IPv4 share of SYNs: " + v4Share);
        assertTrue(capture.icmp > 0, "no ICMP errors planted");
    }

    @Test
    void plantedCountsMatchTheCapture() throws IOException {
        Path pcap = generate("node.pcap", "--seed", "11", "--packets", String.valueOf(SMALL));
        Capture capture = Capture.read(pcap, true);
        Map<String, Long> expected = plantedFindings(pcap);

        assertEquals(readLong(planted(pcap), "packets"), capture.packets);
        assertEquals(readLong(planted(pcap), "attempts"), capture.attempts.size());
        assertEquals(expected, capture.findings());
        for (String pattern : patterns) {
            if (!pattern.equals("lb-probe-dropped")) {
                assertTrue(expected.get(pattern) > 0, "nothing planted for " + pattern);
            }
        }
        assertEquals(0, capture.pending(), "attempts still pending at the end of the capture");
    }

    @Test
    void scaleMultipliesTheTarget() throws IOException {
        Path one = generate("one.pcap", "--packets", "5000");
        Path four = generate("four.pcap", "--packets", "5000", "--scale", "4");
        long p1 = readLong(planted(one), "packets");
        long p4 = readLong(planted(four), "packets");
        assertTrue(p1 >= 5000 && p1 < 5100, "packets: " + p1);
        assertTrue(p4 >= 20_000 && p4 < 20_100, "packets: " + p4);
    }

    @Test
    void synFloodSourcesAreDistinctAndUnanswered() throws IOException {
        Path pcap = generate("flood.pcap", "--seed", "5", "--syn-flood", "10000");
        Capture capture = Capture.read(pcap, false);
        Map<String, Long> findings = capture.findings();

        assertEquals(10_000L, findings.get("no-response"));
        assertEquals(plantedFindings(pcap), findings);
        assertEquals(0, capture.pending());
        assertEquals(0, capture.retransmittedFloodSyns, "flood SYNs are never retransmitted");
        assertEquals(10_000, capture.floodSources.size(), "flood source addresses repeat");
    }

    @Test
    void openConnectionsAreAnsweredNeverClosedAndOverflowWhatPcapdiagFollows() throws IOException {
        Path pcap = generate("open.pcap", "--seed", "7", "--open-connections", "5000");
        Capture capture = Capture.read(pcap, false);
        assertEquals(5000, capture.attempts.size());
        assertEquals(5000, capture.attempts.values().stream().filter(a -> "answered".equals(a.answer)).count());
        assertEquals(5000, capture.attempts.values().stream().map(a -> a.client).distinct().count(), "client addresses repeat");
        assertEquals(0, capture.closes, "a FIN or RST");
        assertEquals(5 * 5000, capture.packets, "a handshake, a request, its answer and its ACK");

        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = io.pcapdiag.cli.Main.run(new String[] {"analyze", "--format", "json", "--max-open", "1000",
            pcap.toString()}, new java.io.PrintWriter(out), new java.io.PrintWriter(err));
        assertEquals(0, code, err.toString());
        com.fasterxml.jackson.databind.JsonNode doc =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString());
        assertEquals(0, doc.get("findings").size());
        com.fasterxml.jackson.databind.JsonNode tracker = doc.get("tracker");
        // 5,000 handshakes within 0.1 s, each open until its decision 4 s after its SYN: past 1,000 the oldest attempt
        // goes, and a SYN-ACK to an attempt gone is unmatched; every other connection is followed, and past 1,000
        // followed at once the one looked at longest ago goes, counted: the last 1,000 are followed to the end.
        long followed = tracker.get("connections_followed").asLong();
        assertEquals(1000, tracker.get("peak_open").asLong());
        assertEquals(5000, tracker.get("attempts").asLong());
        assertEquals(5000, followed + tracker.get("unmatched_answers").asLong());
        assertTrue(followed > 1000, "followed " + followed);
        assertEquals(followed - 1000, tracker.get("connections_evicted").asLong());
    }

    @Test
    void tcpdumpReadsTheTrace() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/tcpdump")) || Files.isExecutable(Path.of("/usr/sbin/tcpdump")),
                "tcpdump not installed");
        Path pcap = generate("node.pcap", "--packets", "5000");
        Process p = new ProcessBuilder("tcpdump", "-nr", pcap.toString(), "-w", "/dev/null")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
    }

    @Test
    void theSameTrafficInsideEachTunnelGivesPcapdiagTheSameFindings() throws IOException {
        Path plain = generate("plain.pcap", "--seed", "3", "--packets", "20000");
        Map<String, Object> expected = pcapdiagSaw(plain);
        Map<String, Long> planted = new HashMap<>(plantedFindings(plain));
        planted.values().removeIf(n -> n == 0);
        assertEquals(planted, expected.get("findings"));
        long packets = readLong(planted(plain), "packets");
        // The bytes each tunnel puts in front of every frame: VXLAN's or Geneve's 50, IP in IP's 20.
        Map<String, Integer> outer = Map.of("--vxlan=8472", 50, "--geneve=6081", 50, "--ipip", 20);
        for (Map.Entry<String, Integer> e : outer.entrySet()) {
            Path t = generate("tunnel.pcap", "--seed", "3", "--packets", "20000", e.getKey());
            assertEquals(Files.size(plain) + packets * e.getValue(), Files.size(t), e.getKey() + ": size");
            assertEquals(expected, pcapdiagSaw(t), e.getKey());
        }
    }

    /** pcapdiag's findings (attempts per pattern) and packet counts for a trace, from its JSON report. */
    private static Map<String, Object> pcapdiagSaw(Path pcap) throws IOException {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        int code = io.pcapdiag.cli.Main.run(new String[] {"analyze", "--format", "json", "--max-findings", "100000",
            pcap.toString()}, new java.io.PrintWriter(out), new java.io.PrintWriter(err));
        assertTrue(code == 0 || code == 1, "exit " + code + ": " + err);
        com.fasterxml.jackson.databind.JsonNode doc =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString());
        Map<String, Long> findings = new HashMap<>();
        for (com.fasterxml.jackson.databind.JsonNode f : doc.get("findings")) {
            findings.merge(f.get("pattern").asText(), f.get("attempts").asLong(), Long::sum);
        }
        com.fasterxml.jackson.databind.JsonNode c = doc.get("captures").get(0);
        Map<String, Object> saw = new HashMap<>();
        saw.put("findings", findings);
        for (String k : new String[] {"packets", "tcp", "icmp_errors", "other", "truncated", "malformed"}) {
            saw.put(k, c.get(k).asLong());
        }
        return saw;
    }

    // ---------------------------------------------------------------- helpers

    private Path generate(String name, String... args) throws IOException {
        Path out = dir.resolve(name);
        String[] all = Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--out";
        all[args.length + 1] = out.toString();
        try {
            main.invoke(null, (Object) all);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IOException("the generator failed on " + Arrays.toString(all), e);
        }
        return out;
    }

    private static Path planted(Path pcap) {
        return Path.of(pcap + ".planted.json");
    }

    private static long readLong(Path json, String key) throws IOException {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*(\\d+)")
                .matcher(Files.readString(json));
        assertTrue(m.find(), key + " missing from " + json);
        return Long.parseLong(m.group(1));
    }

    private static Map<String, Long> plantedFindings(Path pcap) throws IOException {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String pattern : patterns) {
            m.put(pattern, readLong(planted(pcap), pattern));
        }
        return m;
    }

    /** One connection attempt, docs/design.md: (client address, client port, ISN). */
    private static final class Attempt {
        String client;
        String dst;
        int dport;
        long firstMicros;
        int syns;
        String answer;
    }

    /** A minimal pcap reader: validates every header it passes and pairs SYNs with answers. */
    private static final class Capture {
        long packets;
        long bytes;
        int v4Syns;
        int v6Syns;
        int icmp;
        long lastMicros;
        int retransmittedFloodSyns;
        /** Segments with FIN or RST. */
        int closes;
        final Map<String, Attempt> attempts = new HashMap<>();
        final Set<String> floodSources = new HashSet<>();

        static Capture read(Path pcap, boolean allTtl64) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(pcap)).order(ByteOrder.LITTLE_ENDIAN);
            Capture c = new Capture();
            assertEquals(0xa1b2c3d4, b.getInt(0), "magic: microsecond, little-endian");
            assertEquals(2, b.getShort(4));
            assertEquals(4, b.getShort(6));
            assertEquals(0, b.getInt(8));
            assertEquals(0, b.getInt(12));
            int snaplen = b.getInt(16);
            assertEquals(262_144, snaplen);
            assertEquals(1, b.getInt(20), "linktype Ethernet");
            int pos = 24;
            long previous = Long.MIN_VALUE;
            while (pos < b.limit()) {
                assertTrue(pos + 16 <= b.limit(), "truncated record header at " + pos);
                long sec = b.getInt(pos) & 0xffffffffL;
                int usec = b.getInt(pos + 4);
                int incl = b.getInt(pos + 8);
                int orig = b.getInt(pos + 12);
                assertTrue(usec >= 0 && usec < 1_000_000, "usec " + usec + " at " + pos);
                assertEquals(orig, incl, "snapped packet at " + pos);
                assertTrue(incl >= 54 && incl <= snaplen, "length " + incl + " at " + pos);
                assertTrue(pos + 16 + incl <= b.limit(), "truncated packet at " + pos);
                long micros = sec * 1_000_000 + usec;
                assertTrue(micros >= previous, "time goes backwards at " + pos);
                previous = micros;
                byte[] frame = new byte[incl];
                b.get(pos + 16, frame);
                c.packet(micros, frame, allTtl64, pos);
                pos += 16 + incl;
                c.packets++;
            }
            c.bytes = pos;
            c.lastMicros = previous;
            return c;
        }

        private void packet(long micros, byte[] f, boolean allTtl64, int at) {
            ByteBuffer p = ByteBuffer.wrap(f);
            int ethertype = p.getShort(12) & 0xffff;
            boolean v6 = ethertype == 0x86dd;
            assertTrue(v6 || ethertype == 0x0800, "ethertype " + Integer.toHexString(ethertype) + " at " + at);
            int ip = 14;
            int l4;
            int l4Len;
            int proto;
            int ttl;
            if (v6) {
                assertEquals(6, (f[ip] & 0xff) >>> 4);
                l4Len = p.getShort(ip + 4) & 0xffff;
                assertEquals(f.length - ip - 40, l4Len, "IPv6 payload length at " + at);
                proto = f[ip + 6] & 0xff;
                ttl = f[ip + 7] & 0xff;
                l4 = ip + 40;
            } else {
                assertEquals(0x45, f[ip] & 0xff, "IPv4 version/IHL at " + at);
                int total = p.getShort(ip + 2) & 0xffff;
                assertTrue(total == f.length - ip || (f.length == 60 && total < 46),
                        "IPv4 total length at " + at);
                assertEquals(0xffff, checksum(f, ip, 20, 0), "IPv4 header checksum at " + at);
                proto = f[ip + 9] & 0xff;
                ttl = f[ip + 8] & 0xff;
                l4 = ip + 20;
                l4Len = total - 20;
            }
            if (allTtl64) {
                assertEquals(64, ttl, "TTL at " + at);
            }
            String src = address(f, v6 ? ip + 8 : ip + 12, v6);
            String dst = address(f, v6 ? ip + 24 : ip + 16, v6);
            long pseudo = pseudoHeader(f, ip, v6, proto, l4Len);
            if (proto == 6) {
                assertEquals(0xffff, checksum(f, l4, l4Len, pseudo), "TCP checksum at " + at);
                tcp(micros, p, l4, src, dst, v6);
            } else {
                assertEquals(v6 ? 58 : 1, proto, "protocol at " + at);
                assertEquals(0xffff, checksum(f, l4, l4Len, v6 ? pseudo : 0), "ICMP checksum at " + at);
                icmp(p, f, l4, l4Len, src, v6);
            }
        }

        private void tcp(long micros, ByteBuffer p, int l4, String src, String dst, boolean v6) {
            int sport = p.getShort(l4) & 0xffff;
            int dport = p.getShort(l4 + 2) & 0xffff;
            long seq = p.getInt(l4 + 4) & 0xffffffffL;
            long ack = p.getInt(l4 + 8) & 0xffffffffL;
            int flags = p.get(l4 + 13);
            boolean syn = (flags & 0x02) != 0;
            boolean hasAck = (flags & 0x10) != 0;
            boolean rst = (flags & 0x04) != 0;
            if (rst || (flags & 0x01) != 0) {
                closes++;
            }
            if (syn && !hasAck) {
                boolean optionless = (p.get(l4 + 12) & 0xf0) == 0x50;   // only the flood's SYNs
                String key = src + "|" + sport + "|" + seq;
                Attempt a = attempts.get(key);
                if (a == null) {
                    a = new Attempt();
                    a.client = src;
                    a.dst = dst;
                    a.dport = dport;
                    a.firstMicros = micros;
                    attempts.put(key, a);
                    if (v6) {
                        v6Syns++;
                    } else {
                        v4Syns++;
                    }
                    if (optionless) {
                        floodSources.add(src);
                    }
                } else if (optionless) {
                    retransmittedFloodSyns++;
                }
                a.syns++;
            } else if (hasAck && (syn || rst)) {
                Attempt a = attempts.get(dst + "|" + dport + "|" + ((ack - 1) & 0xffffffffL));
                if (a != null && a.answer == null) {
                    boolean fromDialed = src.equals(a.dst) && sport == a.dport;
                    a.answer = syn ? (fromDialed ? "answered" : "nat-bypass-reply")
                            : (fromDialed ? "connection-refused" : "rst-from-elsewhere");
                }
            }
        }

        private void icmp(ByteBuffer p, byte[] f, int l4, int l4Len, String src, boolean v6) {
            icmp++;
            int type = f[l4] & 0xff;
            int code = f[l4 + 1] & 0xff;
            assertEquals(v6 ? 1 : 3, type, "destination unreachable");
            int q = l4 + 8;
            boolean qv6 = ((f[q] & 0xff) >>> 4) == 6;
            assertEquals(v6, qv6);
            int qtcp = q + (v6 ? 40 : (f[q] & 0x0f) * 4);
            assertTrue(qtcp + 8 <= l4 + l4Len, "quote shorter than IP header + 8 bytes");
            String qsrc = address(f, v6 ? q + 8 : q + 12, v6);
            int qsport = p.getShort(qtcp) & 0xffff;
            long qseq = p.getInt(qtcp + 4) & 0xffffffffL;
            Attempt a = attempts.get(qsrc + "|" + qsport + "|" + qseq);
            assertTrue(a != null, "ICMP quotes an unknown SYN");
            if (a.answer == null) {
                boolean portUnreachable = v6 ? code == 4 : code == 3;
                boolean prohibited = v6 ? code == 1 : code == 13; // docs/design.md: policy-reject
                a.answer = src.equals(a.dst) && portUnreachable ? "vip-local-reject"
                        : prohibited ? "policy-reject" : "icmp-unreachable";
            }
        }

        /** Unanswered attempts: retransmitted, or the capture went on for 3 s after them. */
        private boolean unanswered(Attempt a) {
            return a.answer == null && (a.syns > 1 || lastMicros - a.firstMicros >= 3_000_000);
        }

        long pending() {
            return attempts.values().stream().filter(a -> a.answer == null && !unanswered(a)).count();
        }

        Map<String, Long> findings() {
            Map<String, Long> m = new LinkedHashMap<>();
            for (String pattern : patterns) {
                m.put(pattern, 0L);
            }
            // lb-probe-dropped needs >= 2 client ports from one source to one dst:port, unanswered.
            Map<String, Integer> unansweredPerDial = new HashMap<>();
            attempts.forEach((key, a) -> {
                if (unanswered(a)) {
                    unansweredPerDial.merge(key.substring(0, key.indexOf('|')) + ">" + a.dst + ":" + a.dport,
                            1, Integer::sum);
                }
            });
            attempts.forEach((key, a) -> {
                String pattern = null;
                if (unanswered(a)) {
                    String dial = key.substring(0, key.indexOf('|')) + ">" + a.dst + ":" + a.dport;
                    pattern = unansweredPerDial.get(dial) >= 2 ? "lb-probe-dropped" : "no-response";
                } else if (a.answer != null && !a.answer.equals("answered")) {
                    pattern = a.answer;
                }
                if (pattern != null) {
                    m.merge(pattern, 1L, Long::sum);
                }
            });
            return m;
        }

        private static String address(byte[] f, int o, boolean v6) {
            return Arrays.toString(Arrays.copyOfRange(f, o, o + (v6 ? 16 : 4)));
        }

        private static long pseudoHeader(byte[] f, int ip, boolean v6, int proto, int l4Len) {
            long s = v6 ? sum(f, ip + 8, 32) : sum(f, ip + 12, 8);
            return s + proto + l4Len;
        }

        private static long sum(byte[] f, int o, int len) {
            long s = 0;
            for (int i = 0; i + 1 < len; i += 2) {
                s += ((f[o + i] & 0xff) << 8) | (f[o + i + 1] & 0xff);
            }
            if ((len & 1) != 0) {
                s += (f[o + len - 1] & 0xff) << 8;
            }
            return s;
        }

        /** RFC 1071: a correct checksum makes the folded sum over the covered bytes 0xffff. */
        private static int checksum(byte[] f, int o, int len, long pseudo) {
            long s = sum(f, o, len) + pseudo;
            while ((s >>> 16) != 0) {
                s = (s & 0xffff) + (s >>> 16);
            }
            return (int) s;
        }
    }
}
