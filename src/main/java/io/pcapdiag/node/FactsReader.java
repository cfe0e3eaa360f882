package io.pcapdiag.node;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.pcapdiag.decode.Endpoint;
import io.pcapdiag.decode.Ip;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads the document {@link FactsWriter} writes. Keys it does not know are ignored; a fact missing from the document
 * is unknown ("not in FILE"); a fact whose value is not what it should be (another type, no address) is unknown too,
 * with a warning naming its JSON path and what was expected there, and the rest is read on. Only
 * {@code schema_version} and {@code collected_at} are required: without them the file is no node-facts document, an
 * error naming the path. A part of a fact that cannot be read costs the whole fact, never only the part: an interface
 * without {@code ifindex}, a route without {@code metric} make the interfaces, the routes unknown (a table with a row
 * left out would answer "not local", "no route back" wrongly); one nstat counter of another type is that counter
 * unknown.
 */
final class FactsReader {
    private static final Pattern SIMPLE_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final String file;
    private final List<String> warnings = new ArrayList<>();

    private FactsReader(String file) {
        this.file = file;
    }

    /**
     * Parsed from the stream, not read whole first: what is not JSON fails where it starts, not once the file is in
     * memory ({@code --node-facts /dev/zero} filled the heap: exit 4).
     */
    static NodeFacts read(Path path) throws NodeFactsException {
        String file = path.toString();
        JsonNode root;
        try (InputStream in = Files.newInputStream(path)) {
            root = MAPPER.readTree(in);
        } catch (JsonProcessingException e) {
            throw notJson(file, e);
        } catch (NoSuchFileException e) {
            throw new NodeFactsException(file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new NodeFactsException(file + ": permission denied");
        } catch (IOException e) {
            throw new NodeFactsException(file + ": " + Reasons.oneLine(String.valueOf(e.getMessage())), e);
        }
        return facts(root, file);
    }

    static NodeFacts parse(byte[] bytes, String file) throws NodeFactsException {
        JsonNode root;
        try {
            root = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw notJson(file, e);
        } catch (IOException e) {
            throw new NodeFactsException(file + ": " + Reasons.oneLine(String.valueOf(e.getMessage())), e);
        }
        return facts(root, file);
    }

    private static NodeFactsException notJson(String file, JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = "";
        if (at != null) {
            String lineColumn = "line " + at.getLineNr() + ", column " + at.getColumnNr();
            // No byte offset where Jackson decoded the bytes as UTF-16 or UTF-32 (a file of zeros looks like the latter).
            where = at.getByteOffset() < 0 ? lineColumn + ": " : "offset " + at.getByteOffset() + " (" + lineColumn + "): ";
        }
        // Jackson names its own feature and type for text after the value: said as what it is.
        String why = e instanceof MismatchedInputException && e.getOriginalMessage().startsWith("Trailing token")
                ? "text after the end of the document" : Reasons.oneLine(e.getOriginalMessage());
        return new NodeFactsException(file + ": " + where + "not JSON: " + why, e);
    }

    private static NodeFacts facts(JsonNode root, String file) throws NodeFactsException {
        if (root == null || root.isMissingNode()) {
            throw new NodeFactsException(file + ": empty, expected a node-facts JSON object");
        }
        FactsReader r = new FactsReader(file);
        try {
            return r.document(new At(root, "$"));
        } catch (Bad b) {
            throw new NodeFactsException(file + ": " + b.getMessage());
        }
    }

    private NodeFacts document(At d) {
        d.object();
        At schema = d.field("schema_version");
        if (schema.absent()) {
            throw schema.bad("missing (is this a pcapdiag node-facts document?)");
        }
        int version = schema.integer();
        if (version < 1) {
            throw schema.bad("expected 1 or more");
        }
        if (version > NodeFacts.SCHEMA_VERSION) {
            warnings.add("schema_version " + version + " is newer than this pcapdiag reads ("
                    + NodeFacts.SCHEMA_VERSION + "): facts it does not know are ignored");
        }
        Instant collectedAt = d.field("collected_at").required().time();
        At node = d.field("node");
        OrUnknown<String> name = node.absent() ? missing(node) : inside(node, "name", At::text);
        String source = orDefault(node, n -> n.field("source").nullableText(), null);
        At routes = d.field("routes");
        SortedMap<String, OrUnknown<String>> sysctls = orDefault(d.field("sysctls"), s -> {
            SortedMap<String, OrUnknown<String>> out = new TreeMap<>();
            if (!s.absent()) {
                for (Map.Entry<String, At> e : s.fields()) {
                    out.put(e.getKey(), fact(e.getValue(), At::sysctlValue));
                }
            }
            return out;
        }, new TreeMap<>());
        At c = d.field("counters");
        Counters counters = c.absent() ? absentCounters(c.path + " is not in " + file, collectedAt)
                : this.<Counters>orElse(c, this::counters, why -> absentCounters(why, collectedAt));
        OrUnknown<Counters> sampleEnd = d.field("sample").absent() ? OrUnknown.unknown(NodeFacts.NOT_SAMPLED)
                : fact(d.field("sample"), x -> counters(x.field("end").required()));
        return new NodeFacts(version, name, source, collectedAt,
                fact(d.field("kernel_release"), At::text), fact(d.field("ip_command"), At::text),
                fact(d.field("interfaces"), a -> a.list(this::iface)),
                fact(d.field("neighbours"), a -> a.list(this::neighbour)),
                inside(routes, "ipv4", a -> a.list(this::route)), inside(routes, "ipv6", a -> a.list(this::route)),
                sysctls, fact(d.field("br_netfilter_loaded"), At::bool), fact(d.field("kube_proxy_mode"), At::text),
                fact(d.field("conntrack_invalid_drop_rules"), a -> a.list(At::text)), counters, sampleEnd, warnings);
    }

    private NodeInterface iface(At i) {
        i.object();
        int ifindex = i.field("ifindex").required().integer();
        String name = i.field("name").required().text();
        NodeInterface.BridgePort port = i.field("bridge_port").nullable(p -> new NodeInterface.BridgePort(
                fact(p.field("port_no"), At::integer), fact(p.field("hairpin_mode"), At::integer)));
        NodeInterface.Bridge bridge = i.field("bridge").nullable(b -> new NodeInterface.Bridge(
                fact(b.field("nf_call_iptables"), At::integer), fact(b.field("nf_call_ip6tables"), At::integer),
                fact(b.field("nf_call_arptables"), At::integer), fact(b.field("fdb"), l -> l.list(this::fdb))));
        At vx = i.field("vxlan");
        OrUnknown<NodeInterface.Vxlan> vxlan = vx.absent() || vx.node.isNull() ? null : fact(vx, v -> new NodeInterface.Vxlan(
                v.field("vni").nullable(At::number), v.field("port").nullable(At::integer),
                v.field("local").nullableText(), v.field("link").nullableText()));
        return new NodeInterface(ifindex, name, fact(i.field("kind"), At::text), fact(i.field("operstate"), At::text),
                fact(i.field("admin_up"), At::bool), fact(i.field("mac"), At::text), fact(i.field("mtu"), At::integer),
                fact(i.field("iflink"), At::integer), i.field("master").nullableText(),
                fact(i.field("addresses"), a -> a.list(At::prefix)), port, bridge, vxlan);
    }

    private FdbEntry fdb(At e) {
        e.object();
        return new FdbEntry(e.field("mac").required().text(), e.field("port_no").required().integer(),
                e.field("port").nullableText(), e.field("local").required().bool());
    }

    private Neighbour neighbour(At n) {
        n.object();
        return new Neighbour(n.field("address").required().address(), n.field("mac").required().text(),
                n.field("device").required().text(), n.field("state").required().text());
    }

    private Route route(At r) {
        r.object();
        At gw = r.field("gateway");
        return new Route(r.field("destination").required().prefix(), gw.absent() || gw.node.isNull() ? null : gw.address(),
                r.field("device").required().text(), r.field("metric").required().number(),
                r.field("flags").absent() ? List.of() : r.field("flags").list(At::text));
    }

    private Counters counters(At c) {
        c.object();
        Instant at = c.field("read_at").required().time();
        SortedMap<String, Long> nstat = new TreeMap<>();
        SortedMap<String, String> unreadable = new TreeMap<>();
        At n = c.field("nstat");
        if (n.absent()) {
            unreadable.put("nstat", n.path + " is not in " + file);
        } else {
            // One counter of another type is that counter unknown, said; the others stand.
            for (Map.Entry<String, At> e : n.fields()) {
                Long v = orElse(e.getValue(), At::number, why -> {
                    unreadable.put(e.getValue().path, why);
                    return null;
                });
                if (v != null) {
                    nstat.put(e.getKey(), v);
                }
            }
        }
        At u = c.field("nstat_unreadable");
        if (!u.absent()) {
            for (Map.Entry<String, At> e : u.fields()) {
                String why = orDefault(e.getValue(), At::text, null);
                if (why != null) {
                    unreadable.put(e.getKey(), why);
                }
            }
        }
        return new Counters(at, fact(c.field("nf_conntrack_count"), At::number), fact(c.field("nf_conntrack"), At::numbers),
                nstat, unreadable);
    }

    private Counters absentCounters(String why, Instant at) {
        return new Counters(at, OrUnknown.unknown(why), OrUnknown.unknown(why), new TreeMap<>(), new TreeMap<>(Map.of("nstat", why)));
    }

    /**
     * A fact: its value, {@code {"unknown": "reason"}}, or absent (unknown: not in the file). A value that is not what
     * the fact is (of another type, an address that is none) makes the fact unknown, said in one line with its path;
     * the rest of the document is read on, as a cluster snapshot's other objects are.
     */
    private <T> OrUnknown<T> fact(At a, Function<At, T> value) {
        if (a.absent()) {
            return missing(a);
        }
        return orElse(a, x -> x.node.isObject() && x.node.has("unknown") ? OrUnknown.<T>unknown(x.field("unknown").text())
                : OrUnknown.known(value.apply(x)), OrUnknown::unknown);
    }

    /** The fact {@code key} of the section {@code parent}, unknown when the section is absent or no object. */
    private <T> OrUnknown<T> inside(At parent, String key, Function<At, T> value) {
        return parent.absent() ? missing(parent.field(key)) : orElse(parent, p -> fact(p.field(key), value), OrUnknown::unknown);
    }

    /** What {@code read} makes of {@code a}; where that is not what was expected, one warning and {@code otherwise}. */
    private <T> T orDefault(At a, Function<At, T> read, T otherwise) {
        return orElse(a, read, why -> otherwise);
    }

    /**
     * What {@code read} makes of {@code a}; where that is not what was expected, one warning naming the path at fault
     * and what was expected there, and {@code otherwise} of the reason.
     */
    private <T> T orElse(At a, Function<At, T> read, Function<String, T> otherwise) {
        try {
            return read.apply(a);
        } catch (Bad b) {
            warnings.add(b.getMessage() + "; " + a.path + " is read as unknown");
            return otherwise.apply(b.getMessage() + " (in " + file + ")");
        }
    }

    private <T> OrUnknown<T> missing(At a) {
        return OrUnknown.unknown(a.path + " is not in " + file);
    }

    /** A JSON value and its path, for error messages. */
    private static final class At {
        final JsonNode node;
        final String path;

        At(JsonNode node, String path) {
            this.node = node;
            this.path = path;
        }

        boolean absent() {
            return node == null || node.isMissingNode();
        }

        At required() {
            if (absent()) {
                throw bad("missing");
            }
            return this;
        }

        void object() {
            if (!node.isObject()) {
                throw bad("expected an object");
            }
        }

        /** A member; absent when this is absent too (an optional section). */
        At field(String key) {
            if (!absent()) {
                object();
            }
            return new At(absent() ? null : node.get(key), path + (SIMPLE_KEY.matcher(key).matches() ? "." + key : "['" + key + "']"));
        }

        List<Map.Entry<String, At>> fields() {
            object();
            List<Map.Entry<String, At>> out = new ArrayList<>();
            node.fields().forEachRemaining(e -> out.add(Map.entry(e.getKey(), field(e.getKey()))));
            return out;
        }

        <T> List<T> list(Function<At, T> each) {
            if (!node.isArray()) {
                throw bad("expected an array");
            }
            List<T> out = new ArrayList<>(node.size());
            for (int i = 0; i < node.size(); i++) {
                out.add(each.apply(new At(node.get(i), path + "[" + i + "]")));
            }
            return List.copyOf(out);
        }

        <T> T nullable(Function<At, T> value) {
            return absent() || node.isNull() ? null : value.apply(this);
        }

        String nullableText() {
            return nullable(At::text);
        }

        String text() {
            if (!node.isTextual()) {
                throw bad("expected a string");
            }
            return node.asText();
        }

        int integer() {
            if (!node.isIntegralNumber() || !node.canConvertToInt()) {
                throw bad("expected an integer");
            }
            return node.asInt();
        }

        long number() {
            if (!node.isIntegralNumber() || !node.canConvertToLong()) {
                throw bad("expected an integer");
            }
            return node.asLong();
        }

        boolean bool() {
            if (!node.isBoolean()) {
                throw bad("expected true or false");
            }
            return node.asBoolean();
        }

        SortedMap<String, Long> numbers() {
            SortedMap<String, Long> out = new TreeMap<>();
            for (Map.Entry<String, At> e : fields()) {
                out.put(e.getKey(), e.getValue().number());
            }
            return out;
        }

        String sysctlValue() {
            if (node.isIntegralNumber() && node.canConvertToLong()) {
                return Long.toString(node.asLong());
            }
            if (!node.isTextual()) {
                throw bad("expected a number or a string");
            }
            return node.asText();
        }

        Instant time() {
            try {
                return Instant.parse(text());
            } catch (DateTimeParseException e) {
                throw bad("expected a UTC time such as 2026-01-02T03:04:05.000Z");
            }
        }

        Endpoint address() {
            try {
                long[] a = Ip.parse(text());
                return Endpoint.address(a[0], a[1]);
            } catch (IllegalArgumentException e) {
                throw bad("expected an IP address");
            }
        }

        InterfaceAddress prefix() {
            try {
                return InterfaceAddress.parse(text());
            } catch (IllegalArgumentException e) {
                throw bad("expected ADDRESS/PREFIXLENGTH such as 10.244.0.1/24");
            }
        }

        Bad bad(String message) {
            return new Bad(path + ": " + message);
        }
    }

    /** Unchecked inside the reader, so that lambdas can fail; read() turns it into a NodeFactsException. */
    private static final class Bad extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message, null, false, false);
        }
    }
}
