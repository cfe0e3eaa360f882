package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The lab's two nodes joined by a Flannel-style VXLAN (scripts/lab, cross-node-*): what each node's captures say
 * alone and together. Node A's eth0 carries the pod's SYN only inside UDP 8472; the finding is the same there as
 * in the pod's own capture, and where the SYN vanished names the two points the lab's drop sits between.
 */
class CrossNodeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NODE_A = "pdlab-node";
    private static final String NODE_B = "pdlab-node-b";
    private static final String VXLAN = "VXLAN 198.51.100.2 > 198.51.100.3 vni 1";

    private static JsonNode analyze(String... args) throws Exception {
        List<String> a = new ArrayList<>(List.of("analyze", "--format", "json"));
        a.addAll(List.of(args));
        CliRun r = CliRun.of(a.toArray(String[]::new));
        assertEquals(ExitCodes.OK, r.code(), r.err());
        return JSON.readTree(r.out());
    }

    private static String dir(String scenario) {
        return "captures/" + scenario + "/";
    }

    private static String finding(JsonNode report) {
        JsonNode f = report.get("findings").get(0);
        return f.get("pattern").asText() + " " + f.get("client").asText() + " -> " + f.get("target").asText() + " responder "
                + f.get("responder").asText();
    }

    /** Every view of a scenario, the eth0-only ones where the pod's packets are inside VXLAN included, finds what the pod's own capture finds. */
    @ParameterizedTest
    @ValueSource(strings = {"cross-node-remote-drop", "cross-node-policy-reject", "cross-node-underlay-drop"})
    void theTunnelViewsFindWhatThePodsCaptureFinds(String scenario) throws Exception {
        String pod = finding(analyze(dir(scenario) + "pod-eth0.pcap"));
        for (String view : List.of("node-eth0.pcap", "any.pcap", "multi.pcapng")) {
            JsonNode r = analyze(dir(scenario) + view);
            assertEquals(pod, finding(r), view);
            assertTrue(r.get("findings").get(0).get("path").findValuesAsText("tunnel").contains(VXLAN), view);
        }
        JsonNode eth0 = analyze(dir(scenario) + "node-eth0.pcap");
        assertEquals(0, eth0.get("captures").get(0).get("other").asInt(), "every packet on eth0 was decoded to the pod's TCP or ICMP");
        assertEquals("udp.port==8472,vxlan", eth0.get("findings").get(0).get("display_filter_decode_as").asText());
    }

    @Test
    void healthyAcrossTheTunnelIsNoFinding() throws Exception {
        for (String view : List.of("pod-eth0.pcap", "node-eth0.pcap", "node-b-eth0.pcap", "any.pcap", "node-b-any.pcap")) {
            JsonNode r = analyze(dir("cross-node-healthy") + view);
            assertEquals(0, r.get("findings").size(), view);
            assertEquals(1, r.get("attempts").get("answered").asInt(), view);
        }
    }

    /** Dropped between the nodes: both nodes' captures together say it left node A and never reached node B. */
    @Test
    void droppedBetweenTheNodesLeftOneAndNeverReachedTheOther() throws Exception {
        String d = dir("cross-node-underlay-drop");
        JsonNode r = analyze("--cluster", d + "cluster.json", "--node-facts", d + "node-facts.json",
                "--label", d + "any.pcap=" + NODE_A, "--label", d + "node-b-any.pcap=" + NODE_B, d + "any.pcap", d + "node-b-any.pcap");
        JsonNode f = r.get("findings").get(0);
        assertEquals("no-response", f.get("pattern").asText());
        assertEquals("after pdlab-node eth0 out, before pdlab-node-b: it left pdlab-node and never reached pdlab-node-b"
                + " (its capture has no copy of it)", f.get("vanished_between").asText());
        assertEquals(List.of(NODE_A), f.get("path").findValuesAsText("node").stream().distinct().toList());
        assertEquals("eth0", f.get("last_seen").get("interface").asText());
        assertEquals(VXLAN, f.get("last_seen").get("tunnel").asText());
    }

    /**
     * Dropped on node B (its FORWARD chain, between flannel.1 and cni0): together the path runs through node A and
     * into node B, in the order the SYN travelled; node B's facts place the drop after flannel.1, before cni0.
     */
    @Test
    void droppedOnTheRemoteNodeVanishedAfterItsTunnelDevice() throws Exception {
        String d = dir("cross-node-remote-drop");
        JsonNode both = analyze("--cluster", d + "cluster.json", "--node-facts", d + "node-facts.json",
                "--label", d + "any.pcap=" + NODE_A, "--label", d + "node-b-any.pcap=" + NODE_B, d + "any.pcap", d + "node-b-any.pcap");
        JsonNode path = both.get("findings").get(0).get("path");
        List<String> places = new ArrayList<>();
        String time = "";
        for (JsonNode h : path) {
            places.add(h.get("node").asText() + " " + h.get("interface").asText() + " " + h.get("direction").asText());
            assertTrue(h.get("time").asText().compareTo(time) >= 0, "the path runs in time order: " + path);
            time = h.get("time").asText();
        }
        // Node A's facts name node A's interfaces only: node B's SLL2 interface indexes stay numbers.
        assertEquals(List.of("pdlab-node veth-a in", "pdlab-node cni0 in", "pdlab-node flannel.1 out", "pdlab-node eth0 out",
                "pdlab-node-b ifindex 2 in", "pdlab-node-b ifindex 5 in"), places);
        JsonNode clock = both.get("captures").get(1).get("clock");
        assertNotNull(clock);
        assertTrue(Math.abs(clock.get("offset_nanos").asLong()) < 1_000_000L, "one kernel's clock: " + clock);

        JsonNode nodeB = analyze("--cluster", d + "cluster.json", "--node-facts", d + "node-b-facts.json", d + "node-b-any.pcap");
        JsonNode f = nodeB.get("findings").get(0);
        assertEquals("after flannel.1 in, before cni0", f.get("vanished_between").asText());
        assertEquals("confirmed", cause(f, "network-policy"));
    }

    /**
     * Both nodes' captures with both nodes' facts: each node's facts name its own interfaces on the path, and node B's
     * topology places the drop after its flannel.1, before its cni0; causes are judged on node A's (the first).
     */
    @Test
    void eachNodesFactsSpeakForItsOwnCaptures() throws Exception {
        String d = dir("cross-node-remote-drop");
        JsonNode both = analyze("--cluster", d + "cluster.json", "--node-facts", d + "node-facts.json", "--node-facts",
                d + "node-b-facts.json", "--label", d + "any.pcap=" + NODE_A, "--label", d + "node-b-any.pcap=" + NODE_B,
                d + "any.pcap", d + "node-b-any.pcap");
        JsonNode f = both.get("findings").get(0);
        List<String> places = new ArrayList<>();
        f.get("path").forEach(h -> places.add(h.get("node").asText() + " " + h.get("interface").asText() + " "
                + h.get("direction").asText()));
        assertEquals(List.of("pdlab-node veth-a in", "pdlab-node cni0 in", "pdlab-node flannel.1 out", "pdlab-node eth0 out",
                "pdlab-node-b eth0 in", "pdlab-node-b flannel.1 in"), places);
        assertEquals("after pdlab-node-b flannel.1 in, before cni0", f.get("vanished_between").asText());
        JsonNode rp = null;
        for (JsonNode c : f.get("causes")) {
            if (c.get("id").asText().equals("rp-filter")) {
                rp = c;
            }
        }
        assertNotNull(rp);
        String facts = rp.get("facts").toString();
        assertTrue(facts.contains(" on pdlab-node") && !facts.contains("pdlab-node-b"), "causes are judged on the first node's facts: " + facts);
        CliRun twice = CliRun.of("analyze", "--node-facts", d + "node-facts.json", "--node-facts", d + "node-facts.json", d + "any.pcap");
        assertEquals(ExitCodes.USAGE, twice.code());
        assertTrue(twice.err().contains("a second file for pdlab-node"), twice.err());
    }

    /** Rejected by a policy on node B: the ICMP error comes back from node B's VTEP address, inside the tunnel. */
    @Test
    void rejectedOnTheRemoteNodeIsAPolicyRejectFromItsTunnelAddress() throws Exception {
        String d = dir("cross-node-policy-reject");
        JsonNode r = analyze("--cluster", d + "cluster.json", "--node-facts", d + "node-facts.json", d + "node-eth0.pcap");
        JsonNode f = r.get("findings").get(0);
        assertEquals("policy-reject", f.get("pattern").asText());
        assertEquals("10.244.1.0", f.get("responder").asText());
        assertEquals("confirmed", cause(f, "network-policy"));
    }

    private static String cause(JsonNode finding, String id) {
        for (JsonNode c : finding.get("causes")) {
            if (c.get("id").asText().equals(id)) {
                return c.get("verdict").asText();
            }
        }
        return "absent";
    }
}
