package io.pcapdiag.causes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.Fact;
import io.pcapdiag.rules.Finding;
import io.pcapdiag.rules.Pattern;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@code overlay-mtu-mismatch} on the lab's pmtu-blackhole context (captures/README.md: node B's facts confirm it, veth-c
 * and flannel.1 at 1450 over eth0 at 1500 in {@code contradicted/} rule it out), and on those facts changed one thing at
 * a time. The connection is node B's view: pod A's segments arrive on flannel.1 (ifindex 5), pod C's 1500-byte segment
 * leaves veth-c (4) and is never acknowledged.
 */
class OverlayMtuMismatchTest {
    private static final String DIR = "captures/pmtu-blackhole/";
    private static final String SERVER = "10.244.1.20";

    /** The verdict with node B's facts (changed by {@code change}) and the scenario's cluster, on node B's -i any. */
    private static CauseVerdict judged(String facts, Consumer<ObjectNode> change, boolean cluster, int serverIf) {
        List<Context> context = new ArrayList<>();
        if (cluster) {
            context.add(LabContext.cluster(DIR + "cluster.json"));
        }
        if (facts != null) {
            context.add(LabContext.node(DIR + facts, change));
        }
        ConnectionScript c = ConnectionScript.blackhole(context, 5, serverIf, SERVER);
        Finding f = c.only(Pattern.PMTU_BLACKHOLE);
        return RpFilterTest.judged(f, c.script.analysis().context(), Cause.OVERLAY_MTU_MISMATCH).orElseThrow();
    }

    private static String text(CauseVerdict v) {
        return v.facts().stream().map(Fact::text).reduce("", (a, b) -> a + "\n" + b);
    }

    @Test
    void confirmedByNodeBsFactsVethC1500OverFlannel1450() {
        CauseVerdict v = judged("node-b-facts.json", d -> { }, true, 4);
        assertEquals(Verdict.CONFIRMED, v.verdict(), text(v));
        String t = text(v);
        assertTrue(t.contains("the capture first saw the lost segment on veth-c (#7)"), t);
        assertTrue(t.contains("the MTU of veth-c (veth) is 1500 on pdlab-node-b"), t);
        assertTrue(t.contains("flannel.1 (vxlan, MTU 1450) carries pdlab-node-b's packets to 10.244.0.18 (the route to"
                + " 10.244.0.18 leaves by it); VXLAN adds 50 bytes over its IPv4 underlay eth0 (MTU 1500, flannel.1's link)"), t);
        assertTrue(t.contains("1500 is above flannel.1's MTU 1450, and 1500 + 50 = 1550 is above eth0's MTU 1500"), t);
        assertTrue(v.fix().get(0).startsWith("set the CNI's MTU to 1450 (eth0's 1500 less 50 bytes of vxlan headers)"), v.fix().get(0));
        assertTrue(v.fix().get(0).contains("kubectl -n default delete pod api-7c9f8d6b5-t5n8k"), v.fix().get(0));
        assertTrue(v.fix().get(1).startsWith("ip link set dev veth-c mtu 1450   (on pdlab-node-b"), v.fix().get(1));
    }

    @Test
    void contradictedByTheVethsAt1450() {
        CauseVerdict v = judged("contradicted/node-b-facts.json", d -> { }, true, 4);
        assertEquals(Verdict.CONTRADICTED, v.verdict(), text(v));
        assertTrue(text(v).contains("1450 is at most flannel.1's MTU 1450, and 1450 + 50 = 1500 is at most eth0's MTU 1500"), text(v));
        assertEquals(List.of(), v.fix());
    }

    @Test
    void unknownWithoutNodeFactsOrWithAnotherNodesFacts() {
        assertEquals(Verdict.UNKNOWN, judged(null, d -> { }, true, 4).verdict());
        // Node A's facts answer for pdlab-node; the cluster puts the sender, pod C, on pdlab-node-b.
        assertEquals(Verdict.UNKNOWN, judged("node-facts.json", d -> { }, true, 4).verdict());
    }

    @Test
    void theCaptureNamingNoInterfaceFallsBackOnTheLargestPodVeth() {
        // No interface names (a pcap of one interface): the largest pod veth of node B, veth-c at 1500, stands for it.
        CauseVerdict v = judged("node-b-facts.json", d -> { }, true, -1);
        assertEquals(Verdict.CONSISTENT, v.verdict(), text(v));
        assertTrue(text(v).contains("which interface 10.244.1.20 sent the lost segment by the capture does not show (the"
                + " capture names no interface for #7): the largest MTU of its node's pod veths stands for it"), text(v));
        assertTrue(text(v).contains("the largest MTU among the 1 pod veth of pdlab-node-b is 1500 (veth-c)"), text(v));
        // eth0 is a veth in the lab too, but one holding the node's address: not a pod's.
        assertEquals(Verdict.CONTRADICTED, judged("contradicted/node-b-facts.json", d -> { }, true, -1).verdict());
    }

    @Test
    void aNodeWithoutTunnelDeviceEncapsulatesNothing() {
        CauseVerdict v = judged("node-b-facts.json", d -> {
            ArrayNode ifs = (ArrayNode) d.get("interfaces");
            for (int i = 0; i < ifs.size(); i++) {
                if (ifs.get(i).get("name").asText().equals("flannel.1")) {
                    ifs.remove(i);
                }
            }
        }, true, 4);
        assertEquals(Verdict.CONTRADICTED, v.verdict(), text(v));
        assertTrue(text(v).startsWith("\npdlab-node-b has no tunnel device ("), text(v));
    }

    @Test
    void aRouteByTheNodesOwnPodsBridgeIsNotEncapsulated() {
        CauseVerdict v = judged("node-b-facts.json", d -> {
            for (var r : d.get("routes").get("ipv4")) {
                if (r.get("destination").asText().equals("10.244.0.0/24")) {
                    ((ObjectNode) r).put("device", "cni0").putNull("gateway");
                }
            }
        }, true, 4);
        assertEquals(Verdict.CONTRADICTED, v.verdict(), text(v));
        assertTrue(text(v).contains("leaves by cni0, the bridge of pdlab-node-b's own pods"), text(v));
    }

    @Test
    void aTunnelTheRouteDoesNotNameIsOnlyConsistent() {
        // The route to pod A leaves by eth0 (direct routing, or a BPF datapath's cilium_host): flannel.1, the node's only
        // tunnel device, may not carry the segment at all.
        CauseVerdict v = judged("node-b-facts.json", d -> {
            for (var r : d.get("routes").get("ipv4")) {
                if (r.get("destination").asText().equals("10.244.0.0/24")) {
                    ((ObjectNode) r).put("device", "eth0");
                }
            }
        }, true, 4);
        assertEquals(Verdict.CONSISTENT, v.verdict(), text(v));
        assertTrue(text(v).contains("(the only tunnel device of pdlab-node-b; the route to 10.244.0.18 leaves by eth0)"), text(v));
    }

    @Test
    void anIpv6UnderlayAdds70Bytes() {
        // veth-c and flannel.1 at 1450 fit an IPv4 underlay of 1500 (1450 + 50); over IPv6, VXLAN adds 70: 1520.
        CauseVerdict v = judged("contradicted/node-b-facts.json",
                d -> ((ObjectNode) LabContext.iface(d, "flannel.1").get("vxlan")).put("local", "2001:db8::3"), true, 4);
        assertEquals(Verdict.CONFIRMED, v.verdict(), text(v));
        assertTrue(text(v).contains("VXLAN adds 70 bytes over its IPv6 underlay eth0"), text(v));
        assertTrue(text(v).contains("1450 + 70 = 1520 is above eth0's MTU 1500"), text(v));
    }

    @Test
    void theTunnelDeviceAloneDecidesWhenItsMtuIsBelowThePods() {
        // eth0 at 9000 carries 1500 + 50, but flannel.1 at 1450 refuses a 1500-byte packet (ip_forward's MTU check).
        CauseVerdict v = judged("node-b-facts.json", d -> LabContext.iface(d, "eth0").put("mtu", 9000), true, 4);
        assertEquals(Verdict.CONFIRMED, v.verdict(), text(v));
        assertTrue(text(v).contains("1500 is above flannel.1's MTU 1450, and 1500 + 50 = 1550 is at most eth0's MTU 9000"), text(v));
    }

    @Test
    void withoutTheClusterTheCapturesNodeIsTheSenders() {
        // No cluster: node B's facts, unnamed by any label, answer for the capture's node, where veth-c is.
        assertEquals(Verdict.CONFIRMED, judged("node-b-facts.json", d -> { }, false, 4).verdict());
    }
}
