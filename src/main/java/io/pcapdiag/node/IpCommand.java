package io.pcapdiag.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What only netlink reports, through iproute2's {@code ip -d -j addr show}: link kinds, every address with its
 * prefix length and VXLAN parameters. Optional: without {@code ip}, kinds come from sysfs and addresses from
 * getifaddrs(3), and VXLAN parameters are unknown.
 */
final class IpCommand {
    /** What {@code ip} says about one link. */
    record Link(String kind, List<InterfaceAddress> addresses, NodeInterface.Vxlan vxlan) {
    }

    private IpCommand() {
    }

    /** The first executable {@code ip} on PATH, or unknown with the reason. */
    static OrUnknown<Path> onPath(String path) {
        return Commands.onPath("ip", path, "iproute2");
    }

    /** Runs {@code ip -d -j addr show}: links by ifindex, or unknown with the reason. */
    static OrUnknown<Map<Integer, Link>> links(Path ip) {
        OrUnknown<byte[]> out = Commands.run(ip, "-d", "-j", "addr", "show");
        return out.isKnown() ? parse(out.value(), ip + " -d -j addr show") : out.asUnknown();
    }

    static OrUnknown<Map<Integer, Link>> parse(byte[] json, String cmd) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(json);
        } catch (IOException e) {
            // iproute2 before 4.13 has no -j and prints text.
            return OrUnknown.unknown(cmd + " did not print JSON (iproute2 older than 4.13?)");
        }
        if (root == null || !root.isArray()) {
            return OrUnknown.unknown(cmd + " did not print a JSON array");
        }
        Map<Integer, Link> links = new HashMap<>();
        for (JsonNode l : root) {
            if (!l.path("ifindex").canConvertToInt()) {
                continue;
            }
            JsonNode info = l.path("linkinfo");
            String kind = info.path("info_kind").asText(null);
            if (kind == null) {
                // No rtnl_link_ops kind: a NIC driver, or the loopback device.
                kind = "loopback".equals(l.path("link_type").asText()) ? "loopback" : "device";
            }
            List<InterfaceAddress> addresses = new ArrayList<>();
            for (JsonNode a : l.path("addr_info")) {
                String local = a.path("local").asText(null);
                if (local == null || !a.path("prefixlen").canConvertToInt()) {
                    continue;
                }
                try {
                    long[] v = Ip.parse(local);
                    addresses.add(new InterfaceAddress(Endpoint.address(v[0], v[1]), a.get("prefixlen").asInt()));
                } catch (IllegalArgumentException e) {
                    // Not an IP address family pcapdiag looks at.
                }
            }
            NodeInterface.Vxlan vxlan = null;
            if (kind.equals("vxlan")) {
                JsonNode d = info.path("info_data");
                vxlan = new NodeInterface.Vxlan(d.path("id").canConvertToLong() ? d.get("id").asLong() : null,
                        d.path("port").canConvertToInt() ? d.get("port").asInt() : null,
                        d.hasNonNull("local") ? d.get("local").asText() : d.hasNonNull("local6") ? d.get("local6").asText() : null,
                        d.hasNonNull("link") ? d.get("link").asText() : null);
            }
            links.put(l.get("ifindex").asInt(), new Link(kind, addresses, vxlan));
        }
        return OrUnknown.known(links);
    }
}
