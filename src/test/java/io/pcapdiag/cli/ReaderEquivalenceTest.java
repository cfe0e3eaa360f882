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
 * one place.
 */
class ReaderEquivalenceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

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
            }
            for (JsonNode e : f.get("evidence")) {
                ((ObjectNode) e).remove("iface");
            }
        }
        return doc;
    }
}
