package io.pcapdiag.causes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.NodeContext;
import io.pcapdiag.node.NodeFacts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Iterator;
import java.util.Map;

/**
 * A node-facts document to judge causes against, as {@code pcapdiag node-facts} writes it: the lab's node (lo 1,
 * cni0 2, kube-ipvs0 3, veth-a 4 and veth-b 5 on cni0, eth0 6 198.51.100.2/24) with a second uplink eth1 (7,
 * 192.0.2.2/24) and a VLAN eth0.100 (8, 203.0.113.2/24); every sysctl and route as the test sets it.
 */
final class TestNode {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ObjectNode doc;

    TestNode() {
        try {
            doc = (ObjectNode) JSON.readTree(Paths.get("captures/lb-probe-vip-source/node-facts.json").toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ArrayNode ifs = (ArrayNode) doc.get("interfaces");
        ifs.add(iface(7, "eth1", "192.0.2.2/24"));
        ifs.add(iface(8, "eth0.100", "203.0.113.2/24"));
        ObjectNode sysctls = (ObjectNode) doc.get("sysctls");
        for (Iterator<String> it = sysctls.fieldNames(); it.hasNext(); ) {
            if (it.next().startsWith("net.ipv4.conf.")) {
                it.remove();
            }
        }
        ArrayNode v4 = JSON.createArrayNode();
        ((ObjectNode) doc.get("routes")).set("ipv4", v4);
    }

    private static ObjectNode iface(int index, String name, String address) {
        ObjectNode i = JSON.createObjectNode();
        i.put("ifindex", index).put("name", name).put("kind", "veth").put("operstate", "up").put("admin_up", true)
                .put("mac", "02:00:00:00:01:" + String.format("%02x", 0x20 + index)).put("mtu", 1500).put("iflink", 2)
                .putNull("master");
        i.putArray("addresses").add(address);
        i.putNull("bridge_port").putNull("bridge").putNull("vxlan");
        return i;
    }

    /** Sets a sysctl by its sysctl(8) name (an interface with a dot written with a slash). */
    TestNode sysctl(String key, Object value) {
        ((ObjectNode) doc.get("sysctls")).putPOJO(key, value);
        return this;
    }

    /** Sets net.ipv4.conf.IFACE.rp_filter for each (interface, value) pair. */
    TestNode rpFilter(Map<String, Integer> values) {
        values.forEach((iface, v) -> sysctl(NodeFacts.interfaceSysctlKey(iface, "rp_filter"), v));
        return this;
    }

    TestNode route(String destination, String gateway, String device) {
        ObjectNode r = ((ArrayNode) doc.get("routes").get("ipv4")).addObject();
        r.put("destination", destination);
        if (gateway == null) {
            r.putNull("gateway");
        } else {
            r.put("gateway", gateway);
        }
        r.put("device", device).put("metric", 0);
        r.putArray("flags").add("up").add(gateway == null ? "up" : "gateway");
        return this;
    }

    /** Makes the routes unknown, as a node-facts run that could not read /proc/net/route leaves them. */
    TestNode routesUnknown() {
        ((ObjectNode) doc.get("routes")).putObject("ipv4").put("unknown", "/proc/net/route: permission denied");
        return this;
    }

    /** An nstat counter that rose by {@code rise} over the sample. */
    TestNode nstatRise(String counter, long rise) {
        ((ObjectNode) doc.get("counters").get("nstat")).put(counter, 0);
        ((ObjectNode) doc.get("sample").get("end").get("nstat")).put(counter, rise);
        return this;
    }

    /** Removes a sysctl, as a node-facts run that could not read it leaves it unknown. */
    TestNode withoutSysctl(String key) {
        ((ObjectNode) doc.get("sysctls")).remove(key);
        return this;
    }

    /** Sets a bridge's own option ({@code nf_call_iptables}, ...) as /sys/class/net/BR/bridge holds it. */
    TestNode bridgeOption(String bridge, String key, Object value) {
        for (var i : doc.get("interfaces")) {
            if (i.get("name").asText().equals(bridge)) {
                ((ObjectNode) i.get("bridge")).putPOJO(key, value);
            }
        }
        return this;
    }

    /** Sets a bridge port's hairpin mode, as /sys/class/net/PORT/brport/hairpin_mode holds it. */
    TestNode port(String port, int hairpin) {
        for (var i : doc.get("interfaces")) {
            if (i.get("name").asText().equals(port)) {
                ((ObjectNode) i.get("bridge_port")).put("hairpin_mode", hairpin);
            }
        }
        return this;
    }

    /** A /proc/net/stat/nf_conntrack column (summed over CPUs) that rose by {@code rise} over the sample. */
    TestNode conntrackRise(String column, long rise) {
        ((ObjectNode) doc.get("counters").get("nf_conntrack")).put(column, 0);
        ((ObjectNode) doc.get("sample").get("end").get("nf_conntrack")).put(column, rise);
        return this;
    }

    TestNode set(String key, Object value) {
        doc.putPOJO(key, value);
        return this;
    }

    NodeFacts facts() {
        try {
            Path f = Files.createTempFile("node-facts", ".json");
            try {
                JSON.writeValue(f.toFile(), doc);
                return NodeFacts.read(f);
            } finally {
                Files.deleteIfExists(f);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    Context context() {
        return new NodeContext(facts());
    }
}
