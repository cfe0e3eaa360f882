package io.pcapdiag.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.pcapdiag.node.InterfaceAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The addresses, blocks and ports of an object that the analysis cannot use, each named by its path in the object:
 * an IP that is none ({@code 999.1.1.1}, {@code fe80::1%eth0}: a zone belongs to no pod or Service address), a CIDR
 * that is none ({@code 10.0.0.0/99}), a port outside 1-65535, an {@code endPort} below its {@code port}, a pod's
 * {@code dnsPolicy} of no known name or {@code dnsConfig} nameserver that is no IP. The API server refuses each of
 * them, so a snapshot holding one was changed after kubectl wrote it; the value is skipped (the index holds no address
 * it cannot parse, a port out of range matches no packet's) and said, the object kept. An {@code ndots} option that is
 * not a number the API server takes, but the resolvers read it differently ({@link PodDns#ndots}): skipped and said too.
 * How a NetworkPolicy is judged with an unreadable block or port is {@link Policies}'.
 */
final class BadValues {
    private BadValues() {
    }

    /** One line per value skipped, {@code status.podIPs[1].ip: '999.1.1.1' is not an IP address}. */
    static List<String> of(String kind, JsonNode o) {
        List<String> out = new ArrayList<>();
        switch (kind) {
            case "Pod" -> {
                ip(o, "status.podIP", out);
                each(o, "status.podIPs", (p, at) -> ip(p, at + ".ip", out, "ip"));
                each(o, "spec.containers", (c, at) -> each(c, at, "ports", (p, pat) -> port(p, pat, "containerPort", out)));
                dns(o.path("spec"), out);
            }
            case "Service" -> {
                ip(o, "spec.clusterIP", out);
                each(o, "spec.clusterIPs", (v, at) -> ipValue(v, at, out));
                each(o, "spec.externalIPs", (v, at) -> ipValue(v, at, out));
                each(o, "status.loadBalancer.ingress", (i, at) -> ip(i, at + ".ip", out, "ip"));
                each(o, "spec.ports", (p, at) -> {
                    port(p, at, "port", out);
                    port(p, at, "nodePort", out);
                });
            }
            case "EndpointSlice" -> {
                each(o, "endpoints", (e, at) -> each(e, at, "addresses", (v, vat) -> ipValue(v, vat, out)));
                each(o, "ports", (p, at) -> port(p, at, "port", out));
            }
            case "Node" -> each(o, "status.addresses", (a, at) -> {
                String type = a.path("type").asText();
                if (type.equals("InternalIP") || type.equals("ExternalIP")) {
                    ip(a, at + ".address", out, "address");
                }
            });
            case "NetworkPolicy" -> {
                for (String[] d : new String[][] {{"ingress", "from"}, {"egress", "to"}}) {
                    each(o, "spec." + d[0], (rule, at) -> {
                        each(rule, at, d[1], (peer, pat) -> block(peer.path("ipBlock"), pat + ".ipBlock", out));
                        each(rule, at, "ports", (p, pat) -> policyPort(p, pat, out));
                    });
                }
            }
            default -> {
            }
        }
        return out;
    }

    /** An IP literal the index can use: empty for none, "None", "" and a name (which are no address, not wrong). */
    static Optional<String> unreadableIp(String ip) {
        if (ip == null || ip.isEmpty() || ip.equals("None")) {
            return Optional.empty();
        }
        return ClusterIndex.address(ip).isPresent() ? Optional.empty() : Optional.of("'" + ip + "' is not an IP address");
    }

    /** Why a CIDR cannot be used, or empty. */
    static Optional<String> unreadableCidr(String cidr) {
        try {
            InterfaceAddress.parse(cidr);
            return cidr.indexOf('%') < 0 ? Optional.empty() : Optional.of("'" + cidr + "' is not a CIDR");
        } catch (IllegalArgumentException e) {
            return Optional.of("'" + cidr + "' is not a CIDR");
        }
    }

    /** Whether a port is one a packet can have (1-65535). */
    static boolean port(int p) {
        return p >= 1 && p <= 65_535;
    }

    private interface Each {
        void at(JsonNode element, String path);
    }

    /** Every element of the array at {@code path} (dotted) of {@code o}, with its path. */
    private static void each(JsonNode o, String path, Each each) {
        JsonNode a = o;
        for (String k : path.split("\\.")) {
            a = a.path(k);
        }
        for (int i = 0; i < a.size() && a.isArray(); i++) {
            each.at(a.get(i), path + "[" + i + "]");
        }
    }

    private static void each(JsonNode o, String at, String field, Each each) {
        JsonNode a = o.path(field);
        for (int i = 0; i < a.size() && a.isArray(); i++) {
            each.at(a.get(i), at + "." + field + "[" + i + "]");
        }
    }

    private static void ip(JsonNode o, String path, List<String> out) {
        JsonNode v = o;
        for (String k : path.split("\\.")) {
            v = v.path(k);
        }
        ipValue(v, path, out);
    }

    private static void ip(JsonNode o, String path, List<String> out, String field) {
        ipValue(o.path(field), path, out);
    }

    private static void ipValue(JsonNode v, String path, List<String> out) {
        if (v.isTextual()) {
            unreadableIp(v.asText()).ifPresent(why -> out.add(path + ": " + why));
        }
    }

    private static void port(JsonNode o, String at, String field, List<String> out) {
        JsonNode v = o.path(field);
        if (v.isIntegralNumber() && !port(v.asInt())) {
            out.add(at + "." + field + ": " + v.asText() + " is not a port (1-65535)");
        }
    }

    /** A pod's dnsPolicy and dnsConfig ({@link PodDns}): a policy the API server does not know, a nameserver, an ndots. */
    private static void dns(JsonNode spec, List<String> out) {
        JsonNode policy = spec.path("dnsPolicy");
        if (policy.isValueNode() && !policy.isNull() && !policy.asText().isEmpty() && !PodDns.POLICIES.contains(policy.asText())) {
            out.add("spec.dnsPolicy: '" + policy.asText() + "' is not a DNS policy (ClusterFirst, ClusterFirstWithHostNet,"
                    + " Default, None)");
        }
        each(spec, "dnsConfig.nameservers", (v, at) -> {
            if (v.isTextual() && ClusterIndex.address(v.asText()).isEmpty()) {
                out.add("spec." + at + ": '" + v.asText() + "' is not an IP address");
            }
        });
        each(spec, "dnsConfig.options", (o, at) -> {
            if ("ndots".equals(o.path("name").asText(null))) {
                JsonNode v = o.path("value");
                PodDns.unreadableNdots(v.isValueNode() && !v.isNull() ? v.asText() : null)
                        .ifPresent(why -> out.add("spec." + at + ".value: " + why));
            }
        });
    }

    private static void block(JsonNode b, String at, List<String> out) {
        if (b.isMissingNode() || b.isNull()) {
            return;
        }
        if (b.path("cidr").isTextual()) {
            unreadableCidr(b.path("cidr").asText()).ifPresent(why -> out.add(at + ".cidr: " + why + Policies.UNREADABLE_BLOCK));
        }
        JsonNode except = b.path("except");
        for (int i = 0; i < except.size() && except.isArray(); i++) {
            if (except.get(i).isTextual()) {
                String path = at + ".except[" + i + "]";
                unreadableCidr(except.get(i).asText()).ifPresent(why -> out.add(path + ": " + why + Policies.UNREADABLE_BLOCK));
            }
        }
    }

    private static void policyPort(JsonNode p, String at, List<String> out) {
        JsonNode port = p.path("port");
        JsonNode end = p.path("endPort");
        if (port.isIntegralNumber() && !port(port.asInt())) {
            out.add(at + ".port: " + port.asText() + " is not a port (1-65535)" + Policies.UNREADABLE_PORT);
        } else if (end.isIntegralNumber() && (!port(end.asInt()) || port.isIntegralNumber() && end.asInt() < port.asInt())) {
            out.add(at + ".endPort: " + end.asText() + " is not a port from " + (port.isIntegralNumber() ? port.asText() : "port")
                    + " to 65535" + Policies.UNREADABLE_PORT);
        }
    }
}
