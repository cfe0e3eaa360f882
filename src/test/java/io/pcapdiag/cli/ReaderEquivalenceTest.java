package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.capture.Libpcap;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in reader and libpcap (through pcap4j) must give identical findings and attempt counts on
 * every regression capture. libpcap does not report which pcapng interface a packet came from, so
 * evidence is compared without interface names, and in pcapng files (several interfaces) the path, whose
 * sightings are told apart by interface, is not compared: with libpcap the same SYN on two interfaces is
 * one place. For the same reason a finding after the handshake in a pcapng file is compared by its pattern, client
 * and target only: which segment reached the client from the wrong source, and whether an ICMP error was seen where the
 * sender is, rest on the interface each packet was captured on (docs/design.md, "Connections after the handshake").
 */
class ReaderEquivalenceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final java.util.Set<String> AFTER_THE_HANDSHAKE = java.util.Arrays.stream(io.pcapdiag.rules.Pattern.values())
            .filter(io.pcapdiag.rules.Pattern::connection).map(io.pcapdiag.rules.Pattern::id)
            .collect(java.util.stream.Collectors.toSet());

    static List<String> captures() throws IOException {
        return Captures.names();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("captures")
    void builtinAndPcap4jAgree(String name) throws IOException {
        CliRun builtin = CliRun.of("analyze", "--format", "json", Captures.arg(name));
        CliRun pcap4j = CliRun.of("analyze", "--format", "json", "--reader", "pcap4j", Captures.arg(name));
        if (pcap4j.err().contains(Libpcap.MISSING)) {
            if (CliRun.inCi()) {
                fail("libpcap must be installed in CI (scripts/test installs it)");
            }
            Assumptions.abort("libpcap is not installed");
        }
        assertEquals("", pcap4j.err(), "pcap4j reader stderr");
        assertEquals(builtin.code(), pcap4j.code());
        boolean interfaces = name.endsWith(".pcapng");
        JsonNode a = comparable(builtin.out(), interfaces);
        JsonNode b = comparable(pcap4j.out(), interfaces);
        assertEquals(a.get("attempts"), b.get("attempts"), "attempts by outcome");
        assertEquals(a.get("findings"), b.get("findings"), "findings");
        assertEquals(a.get("captures").get(0).get("packets"), b.get("captures").get(0).get("packets"), "packets");
    }

    private static JsonNode comparable(String json, boolean interfaces) throws IOException {
        JsonNode doc = JSON.readTree(json);
        for (JsonNode f : doc.get("findings")) {
            if (interfaces) {
                ((ObjectNode) f).remove(List.of("path", "last_seen", "vanished_between"));
                if (AFTER_THE_HANDSHAKE.contains(f.get("pattern").asText())) {
                    ((ObjectNode) f).retain(List.of("pattern", "client", "target"));
                    continue;
                }
            }
            for (JsonNode e : f.get("evidence")) {
                ((ObjectNode) e).remove(List.of("interface", "direction"));
            }
        }
        return doc;
    }

    /**
     * A microseconds field of a second or more: pcap4j used to fail with "nanos > 999999999", no file, offset 0 and
     * the rest of the capture unread. Both readers now name the file, and say what they did, in one line each.
     */
    @org.junit.jupiter.api.Test
    void corruptMicrosecondsAreOneLineInBothReaders(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(24 + 3 * (16 + 20)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0xa1b2c3d4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(101);
        byte[] ip = new byte[20];
        ip[0] = 0x45;
        ip[3] = 20;
        ip[9] = (byte) 253;
        for (int usec : new int[] {10, 1_500_000, 20}) {
            b.putInt(1_700_000_000).putInt(usec).putInt(20).putInt(20).put(ip);
        }
        java.nio.file.Path p = java.nio.file.Files.write(dir.resolve("usec.pcap"), b.array());
        CliRun builtin = CliRun.of("analyze", "--format", "json", p.toString());
        CliRun pcap4j = CliRun.of("analyze", "--format", "json", "--reader", "pcap4j", p.toString());
        if (pcap4j.err().contains(Libpcap.MISSING)) {
            if (CliRun.inCi()) {
                fail("libpcap must be installed in CI (scripts/test installs it)");
            }
            Assumptions.abort("libpcap is not installed");
        }
        assertEquals(0, builtin.code(), builtin.err());
        assertEquals(0, pcap4j.code(), pcap4j.err());
        assertEquals("pcapdiag: " + p + ": offset 60: the microseconds field 1500000 is a second or more (a corrupt"
                + " timestamp); read as 1.5 s past the record's second, as libpcap passes it on", builtin.err().strip());
        String line = pcap4j.err().strip();
        assertEquals(1, line.lines().count(), line);
        org.junit.jupiter.api.Assertions.assertTrue(line.startsWith("pcapdiag: " + p + ": frame 2: its timestamp's"), line);
        // The records after it are read by both.
        assertEquals(3, JSON.readTree(builtin.out()).at("/captures/0/packets").asInt());
        assertEquals(2, JSON.readTree(pcap4j.out()).at("/captures/0/packets").asInt());
        assertEquals(1, JSON.readTree(pcap4j.out()).at("/captures/0/skipped_records").asInt());
    }
}
