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
import org.junit.jupiter.api.Test;

/**
 * The DNS decoder against tcpdump's DNS printer (print-domain.c) on every DNS capture of ../shared/corpus: for each
 * frame tcpdump -nn prints as DNS over UDP or TCP, pcapdiag decodes a DNS message with the same transaction id, the same
 * direction (query or response), the same answer count, rcode and, for a query of a plain name, the same question
 * name and type; where tcpdump stops with {@code [|domain]}, pcapdiag counts an anomaly. Frames tcpdump prints as DNS
 * that pcapdiag does not decode as DNS, and the other way round, disagree too. Every disagreement is listed in the
 * output; those known (each with its reason) are expected, any other fails, and a known one that no longer occurs
 * fails too, so the list stays true.
 */
class DnsCorpusTest {
    private static final String GRE = "inside GRE and PPP: pcapdiag does not decode GRE, so it sees no DNS";
    private static final String FIRST_FRAGMENT = "the first fragment of a fragmented response: tcpdump stops at its end"
            + " ([|domain], or prints no DNS for IPv6), pcapdiag reads what it holds and counts no anomaly (the rest is in the"
            + " fragments after it)";
    private static final Pattern STAMP = Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{6} ");
    /** A DNS line's start: addresses and ports, then the transaction id (tcpdump prints "UDP, length" otherwise). */
    private static final Pattern DNS = Pattern.compile("IP6? (?:truncated-ip6? - \\d+ bytes missing!)?([0-9a-f:.]+)\\.(\\d+) > ([0-9a-f:.]+)\\.(\\d+): (\\d+)(.*)");
    /** DNS over TCP: the segment's line, then after its length the message as over UDP (print-tcp.c, RFC 7766 8). */
    private static final Pattern TCP_DNS = Pattern.compile("IP6? ([0-9a-f:.]+)\\.(\\d+) > ([0-9a-f:.]+)\\.(\\d+): Flags \\[[^\\]]*\\].*?, length \\d+ (\\d+)(.*)");
    private static final Pattern COUNTS = Pattern.compile("^[^?]*? (\\d+)/(\\d+)/(\\d+)");
    private static final Pattern QUESTION = Pattern.compile(" ([A-Z0-9]+)\\? ([A-Za-z0-9._-]+\\.|\\.) \\(");
    private static final Map<String, Integer> TYPES = Map.of("A", 1, "NS", 2, "CNAME", 5, "SOA", 6, "PTR", 12, "MX", 15,
            "TXT", 16, "AAAA", 28, "SRV", 33, "ANY", 255);
    /** tcpdump's names of the rcodes (print-domain.c), extended ones (RFC 6891, 7873) included. */
    private static final String[] RCODES = {"", "FormErr", "ServFail", "NXDomain", "NotImp", "Refused", "YXDomain",
        "YXRRSet", "NXRRSet", "NotAuth", "NotZone", "Resp11", "Resp12", "Resp13", "Resp14", "Resp15", "BadVers", "BadKey",
        "BadTime", "BadMode", "BadName", "BadAlg", "BadTrunc", "BadCookie"};
    /** tcpdump's line for a datagram to or from port 53 too short for a DNS header. */
    private static final Pattern INVALID = Pattern.compile(": domain \\[length \\d+ < 12\\] \\(invalid\\)");

    /** Known disagreements: capture and frame, and why. */
    private static final Map<String, String> KNOWN = Map.of(
            "arkime/tests/pcap/6-4-gre-ppp-udp-4-dns.pcap #1", GRE,
            "arkime/tests/pcap/6-4-gre-ppp-udp-4-dns.pcap #2", GRE,
            "zeek/testing/btest/Traces/dns-edns-ecs.pcap #53", FIRST_FRAGMENT,
            "zeek/testing/btest/Traces/dns-edns-ecs.pcap #62", FIRST_FRAGMENT,
            "zeek/testing/btest/Traces/dns-edns-ecs.pcap #84", FIRST_FRAGMENT,
            "zeek/testing/btest/Traces/ipv6-fragmented-dns.pcap #6", FIRST_FRAGMENT,
            // DNS over TCP on FDDI (link type 10): tcpdump decodes FDDI, pcapdiag counts its frames as malformed.
            "zeek/testing/btest/Traces/dns-inverse-query.pcap #7", "on an FDDI link (link type 10), which pcapdiag does"
                    + " not decode: it counts the frame as malformed");

    static List<String> captures() throws IOException {
        Path corpus = CaptureFilesOnDisk.corpusDir();
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(corpus)) {
            try (Stream<Path> s = Files.walk(corpus)) {
                s.filter(Files::isRegularFile).map(p -> corpus.relativize(p).toString())
                        .filter(n -> n.matches(".*/[^/]*dns[^/]*\\.pcap(ng)?$|.*/dns[^/]*/input\\.pcap$"))
                        .sorted().forEach(names::add);
            }
        }
        return names;
    }

    @Test
    void dnsAgreesWithTcpdump() throws Exception {
        List<String> captures = captures();
        if (captures.isEmpty()) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("the DNS captures of ../shared/corpus must be there in CI");
            }
            Assumptions.abort("no corpus");
        }
        Map<String, String> disagreements = new TreeMap<>();
        int compared = 0;
        for (String name : captures) {
            Path file = CaptureFilesOnDisk.corpusDir().resolve(name);
            Map<Long, String> tcpdump = tcpdump(file);
            if (tcpdump == null) {
                return;
            }
            Map<Long, String> ours = new TreeMap<>();
            try (FrameSource s = CaptureFiles.open(new Capture(0, file.toString()))) {
                Decoder d = new Decoder();
                PacketView v = new PacketView();
                Frame f;
                while ((f = s.next()) != null) {
                    d.decode(f, v);
                    if (v.dns) {
                        ours.put(f.number, ours(v, tcpdump.get(f.number)));
                    }
                }
            } catch (CaptureException e) {
                // a capture cut on purpose: the frames before the cut are compared
            }
            for (Map.Entry<Long, String> e : tcpdump.entrySet()) {
                String mine = ours.remove(e.getKey());
                compared++;
                if (!e.getValue().equals(mine)) {
                    disagreements.put(name + " #" + e.getKey(), "tcpdump " + e.getValue() + ", pcapdiag " + mine);
                }
            }
            for (Map.Entry<Long, String> e : ours.entrySet()) {
                disagreements.put(name + " #" + e.getKey(), "tcpdump prints no DNS, pcapdiag " + e.getValue());
            }
        }
        StringBuilder listing = new StringBuilder("DNS against tcpdump: " + captures.size() + " captures, " + compared
                + " DNS frames, " + disagreements.size() + " disagreements");
        disagreements.forEach((k, v) -> listing.append("\n  ").append(k).append(": ").append(v)
                .append(KNOWN.containsKey(k) ? " (known: " + KNOWN.get(k) + ")" : ""));
        System.out.println(listing);
        assertTrue(compared > 100, "too few DNS frames compared: " + compared);
        assertEquals(new TreeMap<>(KNOWN).keySet(), disagreements.keySet(), listing::toString);
    }

    /**
     * tcpdump's DNS frames by number, each as the fields both print: id, direction, rcode, answer count, question.
     * Null when there is no tcpdump.
     */
    private static Map<Long, String> tcpdump(Path file) throws IOException, InterruptedException {
        Process p = DecodeTesting.tcpdumpRead(file);
        // A packet's lines: tcpdump prints what a tunnel carries on a line of its own, without a time stamp.
        List<String> packets = new ArrayList<>();
        for (String line : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
            if (STAMP.matcher(line).find()) {
                packets.add(line);
            } else if (!packets.isEmpty()) {
                packets.set(packets.size() - 1, packets.get(packets.size() - 1) + " " + line);
            }
        }
        Map<Long, String> out = new TreeMap<>();
        long frame = 0;
        for (String line : packets) {
            frame++;
            if (INVALID.matcher(line).find()) {
                out.put(frame, "-1 cut");
                continue;
            }
            Matcher m = (line.contains(": Flags [") ? TCP_DNS : DNS).matcher(line);
            String last = null;
            while (m.find()) {
                if (m.group(2).equals("53") || m.group(4).equals("53")) {
                    last = fields(Integer.parseInt(m.group(5)), m.group(6));
                }
                if (m.end(5) < line.length()) {
                    m.region(m.end(5), line.length());
                }
            }
            if (last != null) {
                out.put(frame, last);
            }
        }
        p.waitFor();
        return out;
    }

    /** What tcpdump printed after the id, as the fields compared. */
    private static String fields(int id, String rest) {
        if (rest.contains("[|domain]")) {
            return id + " cut";
        }
        Matcher counts = COUNTS.matcher(rest);
        if (counts.find()) {
            String rcode = "";
            for (int r = 1; r < RCODES.length; r++) {
                if (counts.group().matches(".*\\b" + RCODES[r] + "\\b.*")) {
                    rcode = RCODES[r];
                }
            }
            // tcpdump 4.99 stops printing the records where the captured bytes end, without [|domain]: the last record
            // printed is followed by a comma and nothing.
            boolean stopped = rest.matches(".*, \\(\\d+\\)$");
            return id + " response rcode=" + rcode + " an=" + counts.group(1) + (stopped ? " stopped" : "");
        }
        Matcher q = QUESTION.matcher(rest);
        if (q.find() && TYPES.containsKey(q.group(1))) {
            return id + " query " + q.group(2) + " " + q.group(1);
        }
        return id + " query";
    }

    /** The same fields from pcapdiag's decode, in the form tcpdump's line took (its question only where it has one). */
    private static String ours(PacketView v, String theirs) {
        if (theirs == null || theirs.endsWith(" cut") || v.dnsId < 0) {
            return v.dnsId + (v.dnsMalformed ? " cut" : " complete");
        }
        if (v.dnsResponse()) {
            String rcode = v.dnsRcode < RCODES.length ? RCODES[v.dnsRcode] : "Resp" + v.dnsRcode;
            return v.dnsId + " response rcode=" + rcode + " an=" + v.dnsAnswers + (v.dnsMalformed ? " stopped" : "");
        }
        if (theirs != null && theirs.matches("\\d+ query .*")) {
            String type = TYPES.entrySet().stream().filter(e -> e.getValue() == v.dnsQtype).map(Map.Entry::getKey)
                    .findFirst().orElse("TYPE" + v.dnsQtype);
            return v.dnsId + " query " + (".".equals(v.dnsQname) ? "." : v.dnsQname + ".") + " " + type;
        }
        return v.dnsId + " query";
    }
}
