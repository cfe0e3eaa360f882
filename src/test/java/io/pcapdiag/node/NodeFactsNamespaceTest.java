package io.pcapdiag.node;

import static io.pcapdiag.node.NamespaceLab.inNs;
import static io.pcapdiag.node.NamespaceLab.sh;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pcapdiag node-facts} on the real kernel, run in a "node" namespace built to be known: a bridge cbr0 with two
 * veth ports to pod namespaces (hairpin on for pda only), a down kube-ipvs0 bridge holding two VIPs, a VXLAN device,
 * an extra route, a permanent neighbour entry, bridge-nf-call-iptables 0 (when br_netfilter can be loaded), rp_filter
 * set per interface and a stand-in
 * for kube-proxy's metrics server. The facts read back must be what was set; a sampled run while a pod sends a
 * packet that strict rp_filter drops, and pings that conntrack tracks, must show those counters rising. Then the
 * same without {@code ip} on PATH and without kube-proxy; kube-proxy's INVALID drop rule found, then said to be absent
 * once it is flushed. Needs root, iproute2, iptables, nftables and python3.
 */
@Tag("slow")
class NodeFactsNamespaceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NODE_IP = "10.244.0.1";
    private static final String POD_A = "10.244.0.2";
    private static final String POD_B = "10.244.0.3";
    private static final String SPOOFED = "192.0.2.77"; // routed out of pdc on the node: strict rp_filter drops it on cbr0

    @Test
    void factsAreWhatTheNamespaceHas(@TempDir Path dir) throws Exception {
        NamespaceLab.assumeCanRun("ip", "iptables", "nft", "python3");
        try (NamespaceLab lab = new NamespaceLab()) {
            String node = lab.namespace("node");
            String podA = lab.namespace("a");
            String podB = lab.namespace("b");
            inNs(node, String.join("\n",
                    "ip link set lo up",
                    "ip link add cbr0 type bridge",
                    "ip addr add " + NODE_IP + "/24 dev cbr0",
                    "ip link set cbr0 up",
                    "ip link add pda type veth peer name eth0 netns " + podA,
                    "ip link add pdb type veth peer name eth0 netns " + podB,
                    "ip link set pda master cbr0 && ip link set pda up && ip link set pda type bridge_slave hairpin on",
                    "ip link set pdb master cbr0 && ip link set pdb up",
                    "ip link add kube-ipvs0 type bridge",
                    "ip addr add 10.96.0.10/32 dev kube-ipvs0",
                    "ip addr add 198.51.100.7/32 dev kube-ipvs0",
                    "ip link add flannel.1 type vxlan id 1 dstport 8472 local " + NODE_IP + " dev cbr0",
                    "ip link add pdc type veth peer name pdc-peer",
                    "ip link set pdc up && ip link set pdc-peer up",
                    "ip route add 192.0.2.0/24 dev pdc",
                    "ip route add 203.0.113.0/24 via " + POD_B + " dev cbr0 metric 7",
                    "ip neigh add 10.244.0.9 lladdr 02:00:00:00:00:09 dev cbr0 nud permanent",
                    "echo 1 > /proc/sys/net/ipv4/conf/all/rp_filter",
                    "echo 2 > /proc/sys/net/ipv4/conf/pda/rp_filter",
                    "echo 0 > /proc/sys/net/ipv4/conf/pdb/rp_filter",
                    "echo 1 > /proc/sys/net/ipv4/conf/cbr0/rp_filter",
                    "echo 1 > /proc/sys/net/ipv4/conf/pdb/log_martians",
                    // Conntrack hooks in this namespace, so that the pings below are tracked.
                    "iptables -A INPUT -m conntrack --ctstate NEW,ESTABLISHED -j ACCEPT",
                    // kube-proxy's (iptables mode) drop of what conntrack marks INVALID.
                    "iptables -N KUBE-FORWARD && iptables -A FORWARD -j KUBE-FORWARD",
                    "iptables -A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP"));
            // br_netfilter registers net.bridge.* in every namespace while it is loaded; where it cannot be loaded the
            // facts must say so instead.
            sh("sh", "-c", "modprobe br_netfilter 2>/dev/null || true");
            boolean brNetfilter = Files.isDirectory(Path.of("/proc/sys/net/bridge"));
            if (brNetfilter) {
                inNs(node, "echo 0 > /proc/sys/net/bridge/bridge-nf-call-iptables; echo 1 > /proc/sys/net/bridge/bridge-nf-call-ip6tables");
            }
            for (String[] pod : new String[][] {{podA, POD_A}, {podB, POD_B}}) {
                inNs(pod[0], "ip link set lo up; ip addr add " + pod[1] + "/24 dev eth0; ip link set eth0 up;"
                        + " ip route add default via " + NODE_IP);
            }
            inNs(podA, "ip addr add " + SPOOFED + "/32 dev eth0");
            // A resolved neighbour, and pod A's MAC learned on pda (its ARP reply).
            send(node, NODE_IP, POD_A, 1);
            Process kubeProxy = lab.start(List.of("ip", "netns", "exec", node, "python3", "-u", "-c", KUBE_PROXY),
                    dir.resolve("kube-proxy.log"));
            waitFor(() -> read(dir.resolve("kube-proxy.log")).contains("listening"), "the kube-proxy stand-in did not start");

            // ---- sampled run, with ip: counters rise while it waits
            Path facts = dir.resolve("facts.json");
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", node));
            cmd.addAll(NamespaceLab.java(dir));
            cmd.addAll(List.of("node-facts", "--node", "pdnode-test", "--sample", "3s", "-o", facts.toString()));
            Path log = dir.resolve("node-facts.log");
            Process run = lab.start(cmd, log);
            waitFor(() -> read(log).contains("counters read"), "node-facts did not read the counters:\n" + read(log));
            // Three datagrams to a closed port (conntrack tracks them), two from a source strict rp_filter rejects.
            send(podB, POD_B, NODE_IP, 3);
            send(podA, SPOOFED, NODE_IP, 2);
            assertTrue(run.waitFor(30, TimeUnit.SECONDS), "node-facts did not finish");
            assertEquals(0, run.exitValue(), read(log));
            System.out.println("--- node-facts --sample 3s in " + node + "\n" + Files.readString(facts));

            NodeFacts f = NodeFacts.read(facts);
            assertEquals(List.of(), f.warnings());
            assertEquals("pdnode-test", f.nodeName().value());
            assertEquals("--node", f.nodeNameSource());
            assertEquals(sh("uname", "-r").trim(), f.kernelRelease().value());
            assertTrue(f.ipCommand().isKnown(), f.ipCommand().toString());

            NodeInterface cbr0 = f.interfaceByName("cbr0").orElseThrow();
            NodeInterface pda = f.interfaceByName("pda").orElseThrow();
            NodeInterface pdb = f.interfaceByName("pdb").orElseThrow();
            NodeInterface ipvs = f.interfaceByName("kube-ipvs0").orElseThrow();
            NodeInterface vxlan = f.interfaceByName("flannel.1").orElseThrow();
            assertEquals(ifindex(node, "cbr0"), cbr0.ifindex());
            assertEquals("pda", f.interfaceName(ifindex(node, "pda")).orElseThrow());
            assertEquals("bridge", cbr0.kind().value());
            assertEquals("veth", pda.kind().value());
            assertEquals("vxlan", vxlan.kind().value());
            assertEquals(ifindex(podA, "eth0"), pda.iflink().value(), "a veth's iflink is its peer's ifindex");
            assertEquals(mac(node, "pda"), pda.mac().value());
            assertEquals("cbr0", pda.master());
            assertNull(cbr0.master());
            assertEquals(1, f.hairpinMode("pda").value());
            assertEquals(0, f.hairpinMode("pdb").value());
            assertEquals("cbr0 is not a bridge port", f.hairpinMode("cbr0").reason());
            assertEquals("cbr0", f.bridgeOf("pdb").value().name());
            assertEquals(List.of(NODE_IP + "/24"), v4(cbr0.addresses().value()));
            assertEquals(List.of("10.96.0.10/32", "198.51.100.7/32"), v4(ipvs.addresses().value()));
            assertFalse(ipvs.adminUp().value(), "kube-ipvs0 is down");
            assertTrue(cbr0.adminUp().value());
            assertEquals(new NodeInterface.Vxlan(1L, 8472, NODE_IP, "cbr0"), vxlan.vxlan().value());
            assertNull(cbr0.vxlan());

            // Local addresses, the VIPs on the down kube-ipvs0 included.
            assertEquals(true, f.isLocal(ip("198.51.100.7")).value());
            assertEquals("kube-ipvs0", f.interfaceHolding(ip("10.96.0.10")).orElseThrow().name());
            assertEquals(false, f.isLocal(ip(POD_A)).value());

            // Neighbours and the forwarding database: pod A sits behind pda.
            Neighbour a = f.neighbours().value().stream().filter(n -> n.address().equals(ip(POD_A))).findFirst().orElseThrow();
            assertEquals(mac(podA, "eth0"), a.mac());
            assertEquals("cbr0", a.device());
            assertEquals("complete", a.state());
            assertEquals(new Neighbour(ip("10.244.0.9"), "02:00:00:00:00:09", "cbr0", "permanent"),
                    f.neighbours().value().stream().filter(n -> n.address().equals(ip("10.244.0.9"))).findFirst().orElseThrow());
            assertTrue(cbr0.bridge().fdb().value().contains(new FdbEntry(mac(podA, "eth0"), pda.bridgePort().portNo().value(), "pda", false)),
                    cbr0.bridge().fdb().toString());
            assertTrue(cbr0.bridge().fdb().value().contains(new FdbEntry(mac(node, "pdb"), pdb.bridgePort().portNo().value(), "pdb", true)),
                    cbr0.bridge().fdb().toString());
            assertEquals("pda", f.bridgePortBehind(ip(POD_A)).value().name());
            assertTrue(f.bridgePortBehind(ip("10.244.0.9")).reason().contains("not in the forwarding database of cbr0"),
                    f.bridgePortBehind(ip("10.244.0.9")).toString());

            // Routes of the main table.
            Route r = f.routesV4().value().stream().filter(x -> x.destination().toString().equals("203.0.113.0/24")).findFirst()
                    .orElseThrow();
            assertEquals(new Route(InterfaceAddress.parse("203.0.113.0/24"), ip(POD_B), "cbr0", 7, List.of("up", "gateway")), r);
            assertTrue(f.routesV4().value().stream().anyMatch(x -> x.destination().toString().equals("10.244.0.0/24")
                    && x.gateway() == null && x.device().equals("cbr0")));

            // Sysctls, and the values the kernel acts on.
            assertEquals(brNetfilter, f.brNetfilterLoaded().value());
            assertEquals(false, f.bridgeNfCall("cbr0", false).value());
            if (brNetfilter) {
                assertEquals(0L, f.sysctlNumber("net.bridge.bridge-nf-call-iptables").value());
                assertEquals(true, f.bridgeNfCall("cbr0", true).value());
            } else {
                assertEquals("br_netfilter is not loaded: no /proc/sys/net/bridge", f.sysctl("net.bridge.bridge-nf-call-iptables").reason());
                assertEquals(false, f.bridgeNfCall("cbr0", true).value());
            }
            assertEquals(2L, f.sysctlNumber("net.ipv4.conf.pda.rp_filter").value());
            assertEquals(0L, f.sysctlNumber("net.ipv4.conf.pdb.rp_filter").value());
            // An interface name with a dot is written with a slash, as sysctl(8) takes it.
            assertEquals(sysctl(node, "net.ipv4.conf.flannel/1.rp_filter"), f.sysctlNumber("net.ipv4.conf.flannel/1.rp_filter").value());
            assertEquals(sysctl(node, "net.netfilter.nf_conntrack_max"), f.sysctlNumber("net.netfilter.nf_conntrack_max").value());
            assertEquals("ipvs", f.kubeProxyMode().value());
            // iptables-nft's table is read through iptables-save, not listed again from nft's ruleset.
            assertEquals(List.of("iptables-save: -A KUBE-FORWARD -m conntrack --ctstate INVALID -j DROP"),
                    f.invalidDropRules().value());

            // Counters: sampled, and rising where packets were sent.
            assertTrue(f.counterDelta("TcpExtIPReversePathFilter").value() >= 2, "rp_filter drops: " + f.counterDelta("TcpExtIPReversePathFilter"));
            assertTrue(f.counterDelta("UdpNoPorts").value() >= 3, "datagrams to a closed port: " + f.counterDelta("UdpNoPorts"));
            // The datagrams' flow is a new conntrack entry. (The insert column no longer counts confirmations: since
            // Linux 5.x only ctnetlink's inserts increment it.)
            assertTrue(f.counterDelta("nf_conntrack_count").value() >= 1, "conntrack entries: " + f.counterDelta("nf_conntrack_count"));
            assertEquals(0L, f.counterDelta("nf_conntrack.insert_failed").value());
            double seconds = f.deltas().value().seconds();
            assertTrue(seconds >= 3 && seconds < 10, "sampled over " + seconds + " s");
            // entries is the table's size on every CPU's line: taken once, not summed.
            Counters end = f.sampleEnd().value();
            assertEquals(end.conntrackCount().value(), end.get("nf_conntrack.entries").value());
            assertTrue(end.conntrackCount().value() >= 1);
            JsonNode doc = JSON.readTree(facts.toFile());
            assertEquals(f.counterDelta("TcpExtIPReversePathFilter").value(), doc.at("/sample/delta/TcpExtIPReversePathFilter").asLong(),
                    "the document writes the deltas for people to read");

            // ---- without ip on PATH and without kube-proxy; a per-bridge nf_call_iptables
            kubeProxy.destroy();
            kubeProxy.waitFor(5, TimeUnit.SECONDS);
            inNs(node, "ip link set cbr0 type bridge nf_call_iptables 1");
            Path bare = dir.resolve("bare.json");
            cmd = new ArrayList<>(List.of("ip", "netns", "exec", node, "env", "PATH=/nonexistent-pdnode", "NODE_NAME=node-from-env"));
            cmd.addAll(NamespaceLab.java(dir));
            cmd.addAll(List.of("node-facts", "-o", bare.toString()));
            Process second = lab.start(cmd, dir.resolve("bare.log"));
            assertTrue(second.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, second.exitValue(), read(dir.resolve("bare.log")));
            NodeFacts g = NodeFacts.read(bare);
            assertEquals("node-from-env", g.nodeName().value());
            assertEquals("NODE_NAME", g.nodeNameSource());
            assertEquals("no ip (iproute2) on PATH", g.ipCommand().reason());
            assertEquals("bridge", g.interfaceByName("cbr0").orElseThrow().kind().value(), "DEVTYPE in uevent");
            assertEquals("vxlan", g.interfaceByName("flannel.1").orElseThrow().kind().value());
            assertEquals("loopback", g.interfaceByName("lo").orElseThrow().kind().value());
            OrUnknown<String> vethKind = g.interfaceByName("pda").orElseThrow().kind();
            assertFalse(vethKind.isKnown(), "sysfs does not name a veth");
            assertTrue(vethKind.reason().contains("no ip (iproute2) on PATH"), vethKind.reason());
            assertTrue(g.interfaceByName("flannel.1").orElseThrow().vxlan().reason().contains("only over netlink"));
            for (NodeInterface i : f.interfaces().value()) {
                assertEquals(i.addresses(), g.interfaceByName(i.name()).orElseThrow().addresses(),
                        "getifaddrs gives the addresses ip gives, on " + i.name());
            }
            assertTrue(g.kubeProxyMode().reason().startsWith("http://127.0.0.1:10249/proxyMode: "), g.kubeProxyMode().reason());
            // cbr0's own nf_call_iptables sends its IPv4 traffic to iptables though the sysctl is 0 (br_netfilter loaded).
            assertEquals(brNetfilter, g.bridgeNfCall("cbr0", false).value());
            assertEquals("not sampled: node-facts --sample DURATION reads the counters twice", g.counterDelta("UdpNoPorts").reason());
            assertEquals("no rule dropping INVALID in what was read; not read: no iptables-save on PATH; no ip6tables-save on"
                    + " PATH; no nft (nftables) on PATH", g.invalidDropRules().reason());

            // ---- the INVALID drop rule gone: every ruleset read, none drops INVALID
            inNs(node, "iptables -F KUBE-FORWARD");
            Path none = dir.resolve("none.json");
            cmd = new ArrayList<>(List.of("ip", "netns", "exec", node));
            cmd.addAll(NamespaceLab.java(dir));
            cmd.addAll(List.of("node-facts", "-o", none.toString()));
            Process third = lab.start(cmd, dir.resolve("none.log"));
            assertTrue(third.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, third.exitValue(), read(dir.resolve("none.log")));
            assertEquals(List.of(), NodeFacts.read(none).invalidDropRules().value());
        }
        for (String ns : List.of("node", "a", "b")) {
            assertFalse(sh("ip", "netns", "list").contains("pdnode-" + NamespaceLab.ID + "-" + ns), "namespaces are removed");
        }
    }

    private static final String KUBE_PROXY = String.join("\n",
            "import http.server as h",
            "class H(h.BaseHTTPRequestHandler):",
            "    def do_GET(self):",
            "        body = b'ipvs' if self.path == '/proxyMode' else b'404 page not found'",
            "        self.send_response(200 if self.path == '/proxyMode' else 404)",
            "        self.send_header('Content-Type', 'text/plain; charset=utf-8')",
            "        self.send_header('Content-Length', str(len(body)))",
            "        self.end_headers()",
            "        self.wfile.write(body)",
            "    def log_message(self, *args):",
            "        pass",
            "s = h.HTTPServer(('127.0.0.1', 10249), H)",
            "print('listening', flush=True)",
            "s.serve_forever()");

    /** {@code count} UDP datagrams from {@code src} to port 9 of {@code dst}, 100 ms apart, sent in namespace {@code ns}. */
    private static void send(String ns, String src, String dst, int count) throws Exception {
        sh("ip", "netns", "exec", ns, "python3", "-c", "import socket, sys, time\n"
                + "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                + "s.bind((sys.argv[1], 0))\n"
                + "for _ in range(int(sys.argv[3])):\n"
                + "    s.sendto(b'pdnode', (sys.argv[2], 9))\n"
                + "    time.sleep(0.1)\n", src, dst, Integer.toString(count));
    }

    private static List<String> v4(List<InterfaceAddress> all) {
        return all.stream().filter(a -> a.address().isV4()).map(InterfaceAddress::toString).toList();
    }

    private static Endpoint ip(String text) {
        long[] a = Ip.parse(text);
        return Endpoint.address(a[0], a[1]);
    }

    private static int ifindex(String ns, String dev) throws Exception {
        return JSON.readTree(sh("ip", "-n", ns, "-j", "link", "show", dev)).get(0).get("ifindex").asInt();
    }

    private static String mac(String ns, String dev) throws Exception {
        return JSON.readTree(sh("ip", "-n", ns, "-j", "link", "show", dev)).get(0).get("address").asText();
    }

    /** A sysctl read in namespace {@code ns} (by its /proc/sys file: sysctl(8) may not be installed). */
    private static long sysctl(String ns, String name) throws Exception {
        String path = "/proc/sys/" + Sysctls.toPath(name);
        return Long.parseLong(sh("ip", "netns", "exec", ns, "cat", path).trim());
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier cond, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(message);
            }
            Thread.sleep(50);
        }
    }
}
