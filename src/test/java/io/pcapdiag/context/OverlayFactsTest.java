package io.pcapdiag.context;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import io.pcapdiag.node.NodeFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The node facts that overlay-mtu-mismatch and conntrack-invalid-accepted read, on the lab's node B (veth-c on cni0,
 * flannel.1 a VXLAN device at 1450 whose link is eth0 at 1500) and node A, as they are or with one thing changed: the
 * tunnel a packet to a destination goes through, its overhead and underlay; interface MTUs; the INVALID drop rules.
 */
class OverlayFactsTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NODE_B = "captures/pmtu-blackhole/node-b-facts.json";

    private static Endpoint ip(String s) {
        long[] a = Ip.parse(s);
        return Endpoint.address(a[0], a[1]);
    }

    private static NodeContext node(String path, Consumer<ObjectNode> change) throws Exception {
        ObjectNode doc = (ObjectNode) JSON.readTree(PROJECT.resolve(path).toFile());
        change.accept(doc);
        Path f = Files.createTempFile("node-facts", ".json");
        try {
            JSON.writeValue(f.toFile(), doc);
            return new NodeContext(NodeFacts.read(f));
        } finally {
            Files.deleteIfExists(f);
        }
    }

    private static ObjectNode iface(ObjectNode doc, String name) {
        for (JsonNode i : doc.get("interfaces")) {
            if (i.get("name").asText().equals(name)) {
                return (ObjectNode) i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    @Test
    void theRouteNamesTheVxlanDeviceItsLinkIsTheUnderlay() throws Exception {
        TunnelFacts t = node(NODE_B, d -> { }).tunnel(ip("10.244.0.18")).orElseThrow();
        assertEquals(new TunnelFacts("flannel.1", "vxlan", 1450, 50, true, "eth0", 1500, true, new Fact(Source.NODE,
                "flannel.1 (vxlan, MTU 1450) carries pdlab-node-b's packets to 10.244.0.18 (the route to 10.244.0.18 leaves by"
                        + " it); VXLAN adds 50 bytes over its IPv4 underlay eth0 (MTU 1500, flannel.1's link)")), t);
    }

    @Test
    void withoutItsLinkTheUnderlayHoldsTheLocalAddressElseCarriesTheDefaultRoute() throws Exception {
        TunnelFacts byLocal = node(NODE_B, d -> ((ObjectNode) iface(d, "flannel.1").get("vxlan")).putNull("link"))
                .tunnel(ip("10.244.0.18")).orElseThrow();
        assertEquals("eth0", byLocal.underlay());
        assertTrue(byLocal.fact().text().endsWith("(MTU 1500, it holds flannel.1's local address 198.51.100.3)"),
                byLocal.fact().text());
        TunnelFacts byDefault = node(NODE_B, d -> {
            ((ObjectNode) iface(d, "flannel.1").get("vxlan")).putNull("link").putNull("local");
            ObjectNode r = ((ArrayNode) d.get("routes").get("ipv4")).addObject();
            r.put("destination", "0.0.0.0/0").put("gateway", "198.51.100.1").put("device", "eth0").put("metric", 0);
            r.putArray("flags").add("up").add("gateway");
        }).tunnel(ip("10.244.0.18")).orElseThrow();
        assertEquals("eth0", byDefault.underlay());
        assertTrue(byDefault.fact().text().endsWith("(MTU 1500, the default route's device)"), byDefault.fact().text());
    }

    @Test
    void theOnlyTunnelDeviceWhenTheRouteNamesNoneIsNotRouted() throws Exception {
        // A BPF datapath routes remote pods by cilium_host; its one VXLAN device carries them all the same.
        TunnelFacts t = node(NODE_B, d -> {
            for (JsonNode r : d.get("routes").get("ipv4")) {
                if (r.get("destination").asText().equals("10.244.0.0/24")) {
                    ((ObjectNode) r).put("device", "eth0");
                }
            }
        }).tunnel(ip("10.244.0.18")).orElseThrow();
        assertEquals("flannel.1", t.device());
        assertFalse(t.routed());
        assertTrue(t.fact().text().contains("(the only tunnel device of pdlab-node-b; the route to 10.244.0.18 leaves by"
                + " eth0)"), t.fact().text());
    }

    @Test
    void overheadByKindAndFamily() throws Exception {
        TunnelFacts geneve = node(NODE_B, d -> iface(d, "flannel.1").put("kind", "geneve")).tunnel(ip("10.244.0.18")).orElseThrow();
        assertEquals(50, geneve.overhead());
        assertFalse(geneve.exact(), "Geneve options come on top");
        assertTrue(geneve.fact().text().contains("Geneve adds at least 50 bytes"), geneve.fact().text());
        TunnelFacts ipip = node(NODE_B, d -> iface(d, "flannel.1").put("kind", "ipip").putNull("vxlan"))
                .tunnel(ip("10.244.0.18")).orElseThrow();
        assertEquals(20, ipip.overhead());
        TunnelFacts v6 = node(NODE_B, d -> ((ObjectNode) iface(d, "flannel.1").get("vxlan")).put("local", "2001:db8::3"))
                .tunnel(ip("10.244.0.18")).orElseThrow();
        assertEquals(70, v6.overhead());
    }

    @Test
    void noTunnelNoEncapsulation() throws Exception {
        TunnelFacts none = node(NODE_B, d -> iface(d, "flannel.1").put("kind", "dummy")).tunnel(ip("10.244.0.18")).orElseThrow();
        assertNull(none.device());
        assertTrue(none.fact().text().startsWith("pdlab-node-b has no tunnel device (geneve, gre, gretap, ip6gre, ip6gretap,"
                + " ip6tnl, ipip, sit, vxlan, wireguard)"), none.fact().text());
        TunnelFacts local = node(NODE_B, d -> { }).tunnel(ip("10.244.1.30")).orElseThrow();
        assertNull(local.device(), "a pod of node B itself: the route leaves by cni0");
        assertEquals("the route to 10.244.1.30 on pdlab-node-b leaves by cni0, the bridge of pdlab-node-b's own pods: those"
                + " packets are not encapsulated", local.fact().text());
        assertEquals(Optional.empty(), node(NODE_B, d -> d.putObject("interfaces").put("unknown", "no /sys/class/net"))
                .tunnel(ip("10.244.0.18")));
    }

    @Test
    void interfaceMtusAndTheLargestPodVeth() throws Exception {
        NodeContext b = node(NODE_B, d -> { });
        assertEquals(new Reading("veth-c", "1500", new Fact(Source.NODE, "the MTU of veth-c (veth) is 1500 on pdlab-node-b")),
                b.interfaceMtu("veth-c").orElseThrow());
        assertEquals(Optional.empty(), b.interfaceMtu("veth-z"));
        // eth0 is a veth in the lab, holding the node's address: not a pod's.
        assertEquals(new Reading("veth-c", "1500", new Fact(Source.NODE, "the largest MTU among the 1 pod veth of"
                + " pdlab-node-b is 1500 (veth-c)")), b.largestPodMtu().orElseThrow());
    }

    @Test
    void invalidDropRulesOfTheFamily() throws Exception {
        String dir = "captures/reset-after-reply/";
        Reading none = node(dir + "node-facts.json", d -> { }).invalidDropRules(false).orElseThrow();
        assertNull(none.value());
        Reading kubeProxy = node(dir + "contradicted/node-facts.json", d -> { }).invalidDropRules(false).orElseThrow();
        assertTrue(kubeProxy.value().startsWith("iptables-save: -A FORWARD -m conntrack --ctstate INVALID"), kubeProxy.value());
        assertEquals(Optional.empty(), node(dir + "contradicted/node-facts.json", d -> { }).invalidDropRules(true),
                "an iptables rule sees no IPv6, and whether an ip6tables one exists is not in the document");
        assertEquals(Optional.empty(), node(dir + "node-facts.json", d -> d.putObject("conntrack_invalid_drop_rules")
                .put("unknown", "nft: not on PATH")).invalidDropRules(false));
        assertTrue(NodeContext.seesFamily("nft: table inet filter chain forward: ct state invalid drop", true));
        assertTrue(NodeContext.seesFamily("nft: table bridge filter chain forward: ct state invalid drop", false));
        assertFalse(NodeContext.seesFamily("nft: table ip6 filter chain forward: ct state invalid drop", false));
        assertFalse(NodeContext.seesFamily("nft: table ip filter chain forward: ct state invalid drop", true));
        assertFalse(NodeContext.seesFamily("nft: table arp filter chain input: ct state invalid drop", false));
        assertFalse(NodeContext.seesFamily("ip6tables-legacy-save: -A FORWARD -m state --state INVALID -j DROP", false));
        assertTrue(NodeContext.seesFamily("iptables-legacy-save: -A FORWARD -m state --state INVALID -j DROP", false));
    }
}
