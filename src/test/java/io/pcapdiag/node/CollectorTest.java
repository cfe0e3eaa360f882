package io.pcapdiag.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The collector in this JVM's own namespace (read-only: nothing is changed on the machine) and over an empty
 * /proc and /sys, where every fact is unknown with its reason and the document still round-trips.
 */
class CollectorTest {
    @Test
    void thisMachineRoundTrips() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase(Locale.ROOT).contains("linux"), "reads Linux's /proc and /sys");
        Collector c = new Collector(Collector.Settings.of(null));
        NodeFacts f = c.collect();
        NodeInterface lo = f.interfaceByName("lo").orElseThrow();
        assertEquals("loopback", lo.kind().value());
        assertEquals(Integer.parseInt(Files.readString(Path.of("/sys/class/net/lo/ifindex")).trim()), lo.ifindex());
        assertTrue(f.isLocal(InterfaceAddress.parse("127.0.0.1/8").address()).value());
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim(), f.kernelRelease().value());
        assertFalse(f.counters().nstat().isEmpty(), "nstat counters");
        assertTrue(f.counters().get("IpInReceives").isKnown());

        String text = NodeFactsReaderTest.text(f);
        NodeFacts back = FactsReader.parse(text.getBytes(StandardCharsets.UTF_8), "host.json");
        assertEquals(f, back);
        assertEquals(text, NodeFactsReaderTest.text(back));

        // Live mode: counters again, and the deltas between two readings.
        Counters later = c.sample();
        Counters.Deltas d = later.since(f.counters());
        assertTrue(d.seconds() >= 0);
        assertEquals(later.get("IpInReceives").value() - f.counters().get("IpInReceives").value(), d.get("IpInReceives").value());
        NodeFacts sampled = c.sampled(f);
        assertEquals(sampled, FactsReader.parse(NodeFactsReaderTest.text(sampled).getBytes(StandardCharsets.UTF_8), "host.json"));
    }

    @Test
    void nothingToReadIsUnknownWithTheReasonNeverAnError(@TempDir Path empty) throws Exception {
        Clock clock = Clock.fixed(Instant.parse("2026-01-02T03:04:05.678Z"), ZoneOffset.UTC);
        Collector c = new Collector(new Collector.Settings(null, Map.of(), OrUnknown.unknown("no ip (iproute2) on PATH"),
                "http://127.0.0.1:1/proxyMode"), empty, empty, clock);
        NodeFacts f = c.collect();
        assertEquals("no such file: " + empty.resolve("sys/kernel/hostname"), f.nodeName().reason());
        assertEquals("hostname", f.nodeNameSource());
        assertEquals("no such file: " + empty.resolve("class/net"), f.interfaces().reason());
        assertEquals("no such file: " + empty.resolve("net/arp"), f.neighbours().reason());
        assertEquals("no such file: " + empty.resolve("net/route"), f.routesV4().reason());
        assertEquals("br_netfilter is not loaded: no " + empty.resolve("sys/net/bridge"),
                f.sysctl("net.bridge.bridge-nf-call-iptables").reason());
        assertEquals("nf_conntrack is not loaded: no " + empty.resolve("sys/net/netfilter/nf_conntrack_max"),
                f.sysctl("net.netfilter.nf_conntrack_max").reason());
        assertEquals("ip_vs is not loaded: no " + empty.resolve("sys/net/ipv4/vs"), f.sysctl("net.ipv4.vs.conn_reuse_mode").reason());
        assertEquals("no such file: " + empty.resolve("sys/net/ipv4/conf"), f.sysctl("net.ipv4.conf.all.rp_filter").reason());
        assertEquals("no " + empty.resolve("sys/net"), f.brNetfilterLoaded().reason());
        assertEquals("no such file: " + empty.resolve("net/stat/nf_conntrack") + " (nf_conntrack is not loaded)",
                f.counters().get("nf_conntrack.drop").reason());
        assertEquals("nf_conntrack is not loaded: no " + empty.resolve("sys/net/netfilter/nf_conntrack_count"),
                f.counters().conntrackCount().reason());
        assertEquals(List.of("netstat", "snmp", "snmp6"), f.counters().unreadable().keySet().stream()
                .map(k -> Path.of(k).getFileName().toString()).toList());
        assertTrue(f.kubeProxyMode().reason().startsWith("http://127.0.0.1:1/proxyMode: "), f.kubeProxyMode().reason());
        assertEquals(Instant.parse("2026-01-02T03:04:05.678Z"), f.collectedAt());

        String text = NodeFactsReaderTest.text(f);
        assertTrue(text.contains("\"collected_at\" : \"2026-01-02T03:04:05.678Z\""), text);
        assertEquals(f, FactsReader.parse(text.getBytes(StandardCharsets.UTF_8), "empty.json"));
    }

    @Test
    void nodeNameFromOptionThenEnvironmentThenHostname(@TempDir Path proc) throws Exception {
        Files.createDirectories(proc.resolve("sys/kernel"));
        Files.writeString(proc.resolve("sys/kernel/hostname"), "ip-10-0-0-1\n");
        assertEquals(new NodeName(OrUnknown.known("node-a"), "--node"), NodeName.resolve("node-a", Map.of("NODE_NAME", "node-b"), proc.resolve("sys")));
        assertEquals(new NodeName(OrUnknown.known("node-b"), "NODE_NAME"), NodeName.resolve(null, Map.of("NODE_NAME", "node-b"), proc.resolve("sys")));
        assertEquals(new NodeName(OrUnknown.known("ip-10-0-0-1"), "hostname"), NodeName.resolve(null, Map.of("NODE_NAME", " "), proc.resolve("sys")));
    }
}
