package io.pcapdiag.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link NodeFacts#read}: a hand-written document of a flannel-like node (src/test/resources/.../node-a.json), the
 * queries the analysis asks of it, documents with unknown facts and unknown keys, and malformed documents with
 * their one-line errors.
 */
class NodeFactsReaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static NodeFacts nodeA() throws Exception {
        return NodeFacts.read(Path.of(NodeFactsReaderTest.class.getResource("node-a.json").toURI()));
    }

    private static Endpoint ip(String text) {
        long[] a = Ip.parse(text);
        return Endpoint.address(a[0], a[1]);
    }

    @Test
    void interfaces() throws Exception {
        NodeFacts f = nodeA();
        assertEquals("node-a", f.nodeName().value());
        assertEquals("NODE_NAME", f.nodeNameSource());
        assertEquals(Optional.of("veth2"), f.interfaceName(6));
        assertEquals(Optional.empty(), f.interfaceName(4));
        assertEquals(7, f.interfaceByName("kube-ipvs0").orElseThrow().ifindex());
        assertEquals("cni0", f.bridgeOf("veth1").value().name());
        assertEquals("eth0 is not a bridge port", f.bridgeOf("eth0").reason());
        assertEquals("no interface veth9 on this node", f.bridgeOf("veth9").reason());
        assertEquals(0, f.hairpinMode("veth1").value());
        assertEquals(1, f.hairpinMode("veth2").value());
        assertEquals(new NodeInterface.Vxlan(1L, 8472, "192.0.2.10", "eth0"), f.interfaceByName("flannel.1").orElseThrow().vxlan().value());
        assertNull(f.interfaceByName("eth0").orElseThrow().vxlan(), "not a VXLAN device");
    }

    @Test
    void bridgePortBehindAnAddress() throws Exception {
        NodeFacts f = nodeA();
        assertEquals("veth1", f.bridgePortBehind(ip("10.244.0.2")).value().name());
        assertEquals("veth1", f.bridgePortBehind(new Endpoint(ip("10.244.0.2").hi(), ip("10.244.0.2").lo(), 8080)).value().name(),
                "a port is ignored");
        assertEquals("0a:58:0a:f4:00:04 (10.244.0.4) is not in the forwarding database of cni0 (aged out?)",
                f.bridgePortBehind(ip("10.244.0.4")).reason());
        assertEquals("no resolved neighbour entry for 10.244.0.5", f.bridgePortBehind(ip("10.244.0.5")).reason());
        assertEquals("cni0 forwards 0a:58:0a:f4:00:06 to port 9, which names no interface",
                f.bridgePortBehind(ip("10.244.0.6")).reason());
        assertEquals("ee:ee:ee:00:00:01 of 10.244.0.7 is local to cni0 (a port's own MAC)", f.bridgePortBehind(ip("10.244.0.7")).reason());
        assertEquals("192.0.2.1 is a neighbour on eth0, which is not a bridge", f.bridgePortBehind(ip("192.0.2.1")).reason());
        assertEquals("only IPv4 neighbours are collected (/proc/net/arp)", f.bridgePortBehind(ip("2001:db8::1")).reason());
    }

    @Test
    void localAddresses() throws Exception {
        NodeFacts f = nodeA();
        assertEquals(true, f.isLocal(ip("203.0.113.50")).value());
        assertEquals("kube-ipvs0", f.interfaceHolding(ip("203.0.113.50")).orElseThrow().name(), "a VIP on the down kube-ipvs0");
        assertEquals("eth0", f.interfaceHolding(ip("2001:db8::10")).orElseThrow().name());
        assertEquals(false, f.isLocal(ip("10.244.0.2")).value());
        assertEquals(false, f.isLocal(ip("192.0.2.11")).value(), "in eth0's prefix, not eth0's address");
        assertTrue(InterfaceAddress.parse("192.0.2.10/24").contains(ip("192.0.2.11")));
        assertFalse(InterfaceAddress.parse("192.0.2.10/24").contains(ip("192.0.3.11")));
        assertTrue(InterfaceAddress.parse("2001:db8::10/64").contains(ip("2001:db8::ffff:1")));
        assertFalse(InterfaceAddress.parse("2001:db8::10/64").contains(ip("192.0.2.10")));
    }

    @Test
    void sysctlsAsTheKernelApplies() throws Exception {
        NodeFacts f = nodeA();
        assertEquals("32768 60999", f.sysctl("net.ipv4.ip_local_port_range").value());
        assertEquals("net.ipv4.ip_local_port_range is '32768 60999', not a number", f.sysctlNumber("net.ipv4.ip_local_port_range").reason());
        assertEquals("ip_vs is not loaded: no /proc/sys/net/ipv4/vs", f.sysctl("net.ipv4.vs.conn_reuse_mode").reason());
        assertEquals("net.ipv4.tcp_syncookies was not collected", f.sysctl("net.ipv4.tcp_syncookies").reason());
        assertEquals(262144L, f.sysctlNumber("net.netfilter.nf_conntrack_max").value());
        assertEquals(100L, f.counters().conntrackCount().value());
        assertEquals("iptables", f.kubeProxyMode().value());
        // bridge-nf-call-iptables 0 and cni0's own option 0: bridged IPv4 skips iptables; IPv6 does not.
        assertEquals(false, f.bridgeNfCall("cni0", false).value());
        assertEquals(true, f.bridgeNfCall("cni0", true).value());
        assertEquals("eth0 is not a bridge", f.bridgeNfCall("eth0", false).reason());
    }

    @Test
    void counterDeltas() throws Exception {
        NodeFacts f = nodeA();
        assertEquals(10L, f.counters().get("TcpExtIPReversePathFilter").value());
        assertEquals(7L, f.counterDelta("TcpExtIPReversePathFilter").value());
        assertEquals(4L, f.counterDelta("nf_conntrack.insert_failed").value());
        assertEquals(0L, f.counterDelta("nf_conntrack.drop").value());
        assertEquals(20L, f.counterDelta("nf_conntrack_count").value());
        assertEquals(5.0, f.deltas().value().seconds());
        assertEquals("no nstat counter Ip6InNoRoutes; no such file: /proc/net/snmp6", f.counterDelta("Ip6InNoRoutes").reason());
        assertEquals("/proc/net/stat/nf_conntrack has no column search_restart", f.counterDelta("nf_conntrack.search_restart").reason());
    }

    @Test
    void roundTripOfAHandWrittenDocument() throws Exception {
        NodeFacts f = nodeA();
        NodeFacts again = FactsReader.parse(text(f).getBytes(StandardCharsets.UTF_8), "again.json");
        assertEquals(f, again);
        assertEquals(text(f), text(again));
    }

    @Test
    void unknownFactsAndMissingSections(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("facts.json");
        Files.writeString(file, """
                {"schema_version": 1, "collected_at": "2026-01-02T03:04:05.000Z",
                 "node": {"name": {"unknown": "no such file: /proc/sys/kernel/hostname"}, "source": "hostname"},
                 "interfaces": {"unknown": "permission denied: /sys/class/net"},
                 "br_netfilter_loaded": false}
                """);
        NodeFacts f = NodeFacts.read(file);
        assertEquals("no such file: /proc/sys/kernel/hostname", f.nodeName().reason());
        assertEquals("permission denied: /sys/class/net", f.interfaces().reason());
        assertEquals("permission denied: /sys/class/net", f.isLocal(ip("10.0.0.1")).reason());
        assertEquals("permission denied: /sys/class/net", f.hairpinMode("veth1").reason());
        assertEquals(Optional.empty(), f.interfaceName(1));
        assertEquals("$.neighbours is not in " + file, f.neighbours().reason());
        assertEquals("$.neighbours is not in " + file, f.bridgePortBehind(ip("10.244.0.2")).reason());
        assertEquals("$.routes.ipv4 is not in " + file, f.routesV4().reason());
        assertEquals("$.kube_proxy_mode is not in " + file, f.kubeProxyMode().reason());
        assertEquals("$.counters is not in " + file, f.counters().get("nf_conntrack_count").reason());
        assertEquals("not sampled: node-facts --sample DURATION reads the counters twice", f.counterDelta("TcpExtIPReversePathFilter").reason());
        // br_netfilter not loaded: bridged traffic never reaches iptables, whatever a sysctl would say.
        assertEquals(false, f.bridgeNfCall("cni0", false).value());
    }

    @Test
    void unknownKeysAreIgnoredAndANewerSchemaIsWarnedAbout() throws Exception {
        ObjectNode doc = (ObjectNode) JSON.readTree(NodeFactsReaderTest.class.getResource("node-a.json"));
        doc.put("schema_version", 3);
        doc.putObject("ebpf_programs").put("count", 12);
        ((ObjectNode) doc.get("interfaces").get(2)).put("xdp", "native");
        NodeFacts f = FactsReader.parse(JSON.writeValueAsBytes(doc), "facts.json");
        assertEquals(List.of("schema_version 3 is newer than this pcapdiag reads (1): facts it does not know are ignored"),
                f.warnings());
        assertEquals(1, f.hairpinMode("veth2").value());
        assertEquals(3, f.schemaVersion());
    }

    static Stream<Arguments> malformed() {
        String head = "{\"schema_version\": 1, \"collected_at\": \"2026-01-02T03:04:05.000Z\", ";
        String iface = "{\"ifindex\": 1, \"name\": \"lo\"}";
        return Stream.of(
                Arguments.of("", "facts.json: empty, expected a node-facts JSON object"),
                Arguments.of("[1, 2]", "facts.json: $: expected an object"),
                Arguments.of("{\"node\": {}}", "facts.json: $.schema_version: missing (is this a pcapdiag node-facts document?)"),
                Arguments.of("{\"schema_version\": \"1\"}", "facts.json: $.schema_version: expected an integer"),
                Arguments.of("{\"schema_version\": 0}", "facts.json: $.schema_version: expected 1 or more"),
                Arguments.of("{\"schema_version\": 1}", "facts.json: $.collected_at: missing"),
                Arguments.of("{\"schema_version\": 1, \"collected_at\": \"yesterday\"}",
                        "facts.json: $.collected_at: expected a UTC time such as 2026-01-02T03:04:05.000Z"),
                Arguments.of(head + "\"counters\": {\"read_at\": \"2026-01-02T03:04:05.000Z\", \"nstat\": {\"TcpExtTW\": -}}}",
                        "facts.json: offset 141 (line 1, column 142): not JSON: Unexpected character ('}' (code 125)) in numeric value:"
                                + " expected digit (0-9) to follow minus sign, for valid numeric value"),
                Arguments.of(head + "\"kernel_release\": \"6.1\", \"kernel_release\": \"6.2\"}",
                        "facts.json: offset 107 (line 1, column 108): not JSON: Duplicate field 'kernel_release'"),
                Arguments.of(head + "\"kernel_release\": \"6.1\"} {}",
                        "facts.json: offset 91 (line 1, column 92): not JSON: text after the end of the document"));
    }

    /**
     * A fact whose value is not what it should be is unknown, with one warning naming its path and what was expected
     * there; the rest of the document is read (each of these stopped the analysis with exit 2).
     */
    static Stream<Arguments> badFacts() {
        String head = "{\"schema_version\": 1, \"collected_at\": \"2026-01-02T03:04:05.000Z\", \"kernel_release\": \"6.1\", ";
        String iface = "{\"ifindex\": 1, \"name\": \"lo\"}";
        String route = "{\"destination\": \"10.0.0.0/8\", \"device\": \"eth0\", \"metric\": \"x\"}";
        String counters = "{\"read_at\": \"2026-01-02T03:04:05.000Z\", \"nstat\": {\"TcpExtTW\": \"x\", \"TcpExtIPReversePathFilter\": 3}}";
        Function<NodeFacts, Object> interfaces = NodeFacts::interfaces;
        return Stream.of(
                Arguments.of(head + "\"interfaces\": [" + iface + ", " + iface + ", " + iface + ", {\"ifindex\": \"4\", \"name\": \"eth0\"}]}",
                        "$.interfaces[3].ifindex: expected an integer; $.interfaces is read as unknown", interfaces),
                Arguments.of(head + "\"interfaces\": [{\"name\": \"lo\"}]}", "$.interfaces[0].ifindex: missing; $.interfaces is read as unknown",
                        interfaces),
                Arguments.of(head + "\"interfaces\": {\"lo\": 1}}", "$.interfaces: expected an array; $.interfaces is read as unknown",
                        interfaces),
                Arguments.of(head + "\"interfaces\": [{\"ifindex\": 1, \"name\": \"lo\", \"addresses\": [\"127.0.0.1\"]}]}",
                        "$.interfaces[0].addresses[0]: expected ADDRESS/PREFIXLENGTH such as 10.244.0.1/24;"
                                + " $.interfaces[0].addresses is read as unknown",
                        (Function<NodeFacts, Object>) f -> f.interfaces().value().get(0).addresses()),
                Arguments.of(head + "\"interfaces\": [{\"ifindex\": 1, \"name\": \"br0\", \"bridge\": {\"fdb\": [{\"mac\": \"x\", \"port_no\": 1, \"local\": \"no\"}]}}]}",
                        "$.interfaces[0].bridge.fdb[0].local: expected true or false; $.interfaces[0].bridge.fdb is read as unknown",
                        (Function<NodeFacts, Object>) f -> f.interfaces().value().get(0).bridge().fdb()),
                Arguments.of(head + "\"interfaces\": [{\"ifindex\": 1, \"name\": \"lo\", \"bridge_port\": {\"hairpin_mode\": 1.5}}]}",
                        "$.interfaces[0].bridge_port.hairpin_mode: expected an integer;"
                                + " $.interfaces[0].bridge_port.hairpin_mode is read as unknown",
                        (Function<NodeFacts, Object>) f -> f.hairpinMode("lo")),
                Arguments.of(head + "\"neighbours\": [{\"address\": \"10.0.0.256\", \"mac\": \"m\", \"device\": \"d\", \"state\": \"s\"}]}",
                        "$.neighbours[0].address: expected an IP address; $.neighbours is read as unknown",
                        (Function<NodeFacts, Object>) NodeFacts::neighbours),
                Arguments.of(head + "\"sysctls\": {\"net.ipv4.ip_forward\": true}}",
                        "$.sysctls['net.ipv4.ip_forward']: expected a number or a string; $.sysctls['net.ipv4.ip_forward'] is read as unknown",
                        (Function<NodeFacts, Object>) f -> f.sysctl("net.ipv4.ip_forward")),
                Arguments.of(head + "\"sysctls\": {\"net.ipv4.ip_forward\": {\"unknown\": 5}}}",
                        "$.sysctls['net.ipv4.ip_forward'].unknown: expected a string; $.sysctls['net.ipv4.ip_forward'] is read as unknown",
                        (Function<NodeFacts, Object>) f -> f.sysctl("net.ipv4.ip_forward")),
                Arguments.of(head + "\"routes\": {\"ipv4\": [" + route + "]}}",
                        "$.routes.ipv4[0].metric: expected an integer; $.routes.ipv4 is read as unknown",
                        (Function<NodeFacts, Object>) NodeFacts::routesV4),
                Arguments.of(head + "\"routes\": []}", "$.routes: expected an object; $.routes is read as unknown",
                        (Function<NodeFacts, Object>) NodeFacts::routesV6),
                Arguments.of(head + "\"node\": \"a\"}", "$.node: expected an object; $.node is read as unknown",
                        (Function<NodeFacts, Object>) NodeFacts::nodeName),
                Arguments.of(head + "\"counters\": {\"nstat\": {}}}", "$.counters.read_at: missing; $.counters is read as unknown",
                        (Function<NodeFacts, Object>) f -> f.counters().conntrackCount()),
                Arguments.of(head + "\"sample\": {\"seconds\": 1}}", "$.sample.end: missing; $.sample is read as unknown",
                        (Function<NodeFacts, Object>) NodeFacts::sampleEnd),
                Arguments.of(head + "\"counters\": " + counters + ", \"sample\": {\"end\": " + counters + "}}",
                        "$.sample.end.nstat.TcpExtTW: expected an integer; $.sample.end.nstat.TcpExtTW is read as unknown",
                        (Function<NodeFacts, Object>) f -> f.sampleEnd().value().get("TcpExtTW")));
    }

    @ParameterizedTest
    @MethodSource("badFacts")
    void aBadValueIsItsFactUnknownWithALine(String doc, String warning, Function<NodeFacts, Object> fact) throws Exception {
        NodeFacts f = FactsReader.parse(doc.getBytes(StandardCharsets.UTF_8), "facts.json");
        assertTrue(f.warnings().contains(warning), f.warnings().toString());
        OrUnknown<?> unknown = (OrUnknown<?>) fact.apply(f);
        assertFalse(unknown.isKnown());
        assertTrue(unknown.reason().contains(warning.substring(0, warning.indexOf(';')) + " (in facts.json)"), unknown.reason());
        assertEquals("6.1", f.kernelRelease().value(), "the rest is read");
    }

    @ParameterizedTest
    @MethodSource("malformed")
    void malformedDocumentsGiveOneLine(String doc, String error) {
        NodeFactsException e = assertThrows(NodeFactsException.class, () -> FactsReader.parse(doc.getBytes(StandardCharsets.UTF_8), "facts.json"));
        assertEquals(error, e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void aFileThatIsNotThereOrNotJson(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("none.json");
        assertEquals(missing + ": no such file", assertThrows(NodeFactsException.class, () -> NodeFacts.read(missing)).getMessage());
        Path capture = dir.resolve("capture.pcap");
        Files.write(capture, new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0, 4, 0});
        assertEquals(capture + ": offset 4 (line 1, column 5): not JSON: Invalid UTF-8 start byte 0xa1",
                assertThrows(NodeFactsException.class, () -> NodeFacts.read(capture)).getMessage());
    }

    static String text(NodeFacts f) {
        StringWriter w = new StringWriter();
        f.write(w);
        return w.toString();
    }
}
