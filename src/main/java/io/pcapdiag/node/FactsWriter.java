package io.pcapdiag.node;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The node-facts document. Keys come in a fixed order, maps sorted by key, lists sorted; a fact that could not be
 * read is {@code {"unknown": "reason"}} where its value would be; {@code null} means "does not apply" (no master,
 * not a bridge). {@link FactsReader} reads it back.
 */
final class FactsWriter {
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final Pattern INTEGER = Pattern.compile("-?(0|[1-9][0-9]{0,17})");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

    private FactsWriter() {
    }

    static void write(NodeFacts f, Writer out) {
        try {
            MAPPER.writeValue(out, document(f));
            out.write(System.lineSeparator());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode document(NodeFacts f) {
        ObjectNode d = F.objectNode();
        d.put("schema_version", f.schemaVersion());
        ObjectNode node = d.putObject("node");
        node.set("name", fact(f.nodeName(), F::textNode));
        node.put("source", f.nodeNameSource());
        d.put("collected_at", TIME.format(f.collectedAt()));
        d.set("kernel_release", fact(f.kernelRelease(), F::textNode));
        d.set("ip_command", fact(f.ipCommand(), F::textNode));
        d.set("interfaces", fact(f.interfaces(), l -> array(l, FactsWriter::iface)));
        d.set("neighbours", fact(f.neighbours(), l -> array(l, FactsWriter::neighbour)));
        ObjectNode routes = d.putObject("routes");
        routes.set("ipv4", fact(f.routesV4(), l -> array(l, FactsWriter::route)));
        routes.set("ipv6", fact(f.routesV6(), l -> array(l, FactsWriter::route)));
        d.set("br_netfilter_loaded", fact(f.brNetfilterLoaded(), F::booleanNode));
        ObjectNode sysctls = d.putObject("sysctls");
        f.sysctls().forEach((k, v) -> sysctls.set(k, fact(v, FactsWriter::sysctlValue)));
        d.set("kube_proxy_mode", fact(f.kubeProxyMode(), F::textNode));
        d.set("conntrack_invalid_drop_rules", fact(f.invalidDropRules(), l -> array(l, F::textNode)));
        d.set("counters", counters(f.counters()));
        d.set("sample", fact(f.sampleEnd(), end -> sample(f.counters(), end)));
        return d;
    }

    private static ObjectNode iface(NodeInterface i) {
        ObjectNode o = F.objectNode();
        o.put("ifindex", i.ifindex());
        o.put("name", i.name());
        o.set("kind", fact(i.kind(), F::textNode));
        o.set("operstate", fact(i.operstate(), F::textNode));
        o.set("admin_up", fact(i.adminUp(), F::booleanNode));
        o.set("mac", fact(i.mac(), F::textNode));
        o.set("mtu", fact(i.mtu(), F::numberNode));
        o.set("iflink", fact(i.iflink(), F::numberNode));
        o.put("master", i.master());
        o.set("addresses", fact(i.addresses(), l -> array(l, a -> F.textNode(a.toString()))));
        if (i.bridgePort() == null) {
            o.putNull("bridge_port");
        } else {
            ObjectNode p = o.putObject("bridge_port");
            p.set("port_no", fact(i.bridgePort().portNo(), F::numberNode));
            p.set("hairpin_mode", fact(i.bridgePort().hairpinMode(), F::numberNode));
        }
        if (i.bridge() == null) {
            o.putNull("bridge");
        } else {
            ObjectNode b = o.putObject("bridge");
            b.set("nf_call_iptables", fact(i.bridge().nfCallIptables(), F::numberNode));
            b.set("nf_call_ip6tables", fact(i.bridge().nfCallIp6tables(), F::numberNode));
            b.set("nf_call_arptables", fact(i.bridge().nfCallArptables(), F::numberNode));
            b.set("fdb", fact(i.bridge().fdb(), l -> array(l, FactsWriter::fdb)));
        }
        o.set("vxlan", i.vxlan() == null ? F.nullNode() : fact(i.vxlan(), FactsWriter::vxlan));
        return o;
    }

    private static ObjectNode fdb(FdbEntry e) {
        ObjectNode o = F.objectNode();
        o.put("mac", e.mac());
        o.put("port_no", e.portNo());
        o.put("port", e.port());
        o.put("local", e.local());
        return o;
    }

    private static ObjectNode vxlan(NodeInterface.Vxlan v) {
        ObjectNode o = F.objectNode();
        o.put("vni", v.vni());
        o.put("port", v.port());
        o.put("local", v.local());
        o.put("link", v.link());
        return o;
    }

    private static ObjectNode neighbour(Neighbour n) {
        ObjectNode o = F.objectNode();
        o.put("address", n.address().address());
        o.put("mac", n.mac());
        o.put("device", n.device());
        o.put("state", n.state());
        return o;
    }

    private static ObjectNode route(Route r) {
        ObjectNode o = F.objectNode();
        o.put("destination", r.destination().toString());
        o.put("gateway", r.gateway() == null ? null : r.gateway().address());
        o.put("device", r.device());
        o.put("metric", r.metric());
        ArrayNode flags = o.putArray("flags");
        r.flags().forEach(flags::add);
        return o;
    }

    private static ObjectNode counters(Counters c) {
        ObjectNode o = F.objectNode();
        o.put("read_at", TIME.format(c.readAt()));
        o.set("nf_conntrack_count", fact(c.conntrackCount(), F::numberNode));
        o.set("nf_conntrack", fact(c.conntrackStat(), FactsWriter::numbers));
        o.set("nstat", numbers(c.nstat()));
        ObjectNode unreadable = o.putObject("nstat_unreadable");
        c.unreadable().forEach(unreadable::put);
        return o;
    }

    /** The end reading and, for a person reading the file, the counters that changed (the reader recomputes them). */
    private static ObjectNode sample(Counters start, Counters end) {
        Counters.Deltas d = end.since(start);
        ObjectNode o = F.objectNode();
        o.put("seconds", d.seconds());
        o.set("end", counters(end));
        ObjectNode changed = o.putObject("delta");
        d.all().forEach((k, v) -> {
            if (v != 0) {
                changed.put(k, v);
            }
        });
        return o;
    }

    private static ObjectNode numbers(Map<String, Long> m) {
        ObjectNode o = F.objectNode();
        m.forEach(o::put);
        return o;
    }

    /** A sysctl that holds one integer is a JSON number; anything else (a port range) its text. */
    private static JsonNode sysctlValue(String v) {
        return INTEGER.matcher(v).matches() ? F.numberNode(Long.parseLong(v)) : F.textNode(v);
    }

    private static <T> ArrayNode array(List<T> list, Function<T, JsonNode> each) {
        ArrayNode a = F.arrayNode();
        list.forEach(x -> a.add(each.apply(x)));
        return a;
    }

    static <T> JsonNode fact(OrUnknown<T> f, Function<T, JsonNode> value) {
        if (f.isKnown()) {
            return value.apply(f.value());
        }
        ObjectNode o = F.objectNode();
        o.put("unknown", f.reason());
        return o;
    }
}
