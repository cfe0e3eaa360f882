package io.pcapdiag.check;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The findings of one analysis as a baseline compares them: read from an {@code analyze --format json}
 * document (a baseline file, or the fresh analysis), the verdict fields only ({@link Expectation}).
 *
 * @param notListed findings counted but not listed in full ({@code findings_not_listed}), summed over patterns
 */
public record Baseline(List<Expectation> findings, long notListed) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] ROLES = {"client", "target", "responder"};

    /** A document that is not a baseline: names where in it ({@code $.findings[2].attempts}) and why. */
    public static final class Malformed extends Exception {
        public Malformed(String where, String why) {
            super(where + ": " + why);
        }
    }

    /** Reads a JSON report; a problem is a {@link Malformed} naming the JSON path (and line, for a syntax error). */
    public static Baseline parse(String json) throws Malformed {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            String where = "$";
            if (e.getProcessor() instanceof JsonParser p && p.getParsingContext() != null) {
                where = path(p.getParsingContext().pathAsPointer());
            }
            var loc = e.getLocation();
            throw new Malformed(where, "not JSON" + (loc == null ? "" : " (line " + loc.getLineNr() + ", column "
                    + loc.getColumnNr() + ")") + ": " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new Malformed("$", "expected an object (pcapdiag analyze --format json), found " + kind(root));
        }
        JsonNode findings = root.get("findings");
        if (findings == null || !findings.isArray()) {
            throw new Malformed("$.findings", "expected an array, found " + kind(findings));
        }
        List<Expectation> out = new ArrayList<>();
        for (int i = 0; i < findings.size(); i++) {
            out.add(expectation(findings.get(i), "$.findings[" + i + "]"));
        }
        long notListed = 0;
        JsonNode nl = root.get("findings_not_listed");
        if (nl != null && !nl.isNull()) {
            if (!nl.isObject()) {
                throw new Malformed("$.findings_not_listed", "expected an object of counts, found " + kind(nl));
            }
            for (Map.Entry<String, JsonNode> e : nl.properties()) {
                notListed += count(e.getValue(), "$.findings_not_listed." + e.getKey());
            }
        }
        return new Baseline(List.copyOf(out), notListed);
    }

    private static Expectation expectation(JsonNode f, String at) throws Malformed {
        if (!f.isObject()) {
            throw new Malformed(at, "expected a finding object, found " + kind(f));
        }
        SortedMap<String, String> refs = new TreeMap<>();
        for (String role : ROLES) {
            JsonNode r = f.get(role + "_ref");
            if (r == null || r.isNull()) {
                continue;
            }
            if (!r.isObject()) {
                throw new Malformed(at + "." + role + "_ref", "expected an object or null, found " + kind(r));
            }
            refs.put(role, ref(r, at + "." + role + "_ref"));
        }
        SortedMap<String, String> causes = new TreeMap<>();
        JsonNode cs = f.get("causes");
        if (cs != null && !cs.isNull()) {
            if (!cs.isArray()) {
                throw new Malformed(at + ".causes", "expected an array, found " + kind(cs));
            }
            for (int i = 0; i < cs.size(); i++) {
                String c = at + ".causes[" + i + "]";
                causes.put(text(cs.get(i), "id", c, false), text(cs.get(i), "verdict", c, false));
            }
        }
        return new Expectation(text(f, "pattern", at, false), text(f, "client", at, false), text(f, "target", at, false),
                text(f, "responder", at, true), count(f.get("attempts"), at + ".attempts"),
                Collections.unmodifiableSortedMap(refs), Collections.unmodifiableSortedMap(causes));
    }

    /** A reference as one string: {@code service default/web port http}, {@code pod default/web-1 on node-a}. */
    private static String ref(JsonNode r, String at) throws Malformed {
        String kind = text(r, "kind", at, false);
        String ns = text(r, "namespace", at, true);
        StringBuilder b = new StringBuilder(kind).append(' ');
        if (ns != null) {
            b.append(ns).append('/');
        }
        b.append(text(r, "name", at, false));
        String port = text(r, "port", at, true);
        if (port != null) {
            b.append(" port ").append(port);
        }
        String node = text(r, "node", at, true);
        if (node != null) {
            b.append(" on ").append(node);
        }
        return b.toString();
    }

    private static String text(JsonNode o, String field, String at, boolean nullable) throws Malformed {
        if (!o.isObject()) {
            throw new Malformed(at, "expected an object, found " + kind(o));
        }
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            if (nullable) {
                return null;
            }
            throw new Malformed(at + "." + field, v == null ? "missing" : "must not be null");
        }
        if (!v.isTextual()) {
            throw new Malformed(at + "." + field, "expected a string, found " + kind(v));
        }
        return v.textValue();
    }

    private static long count(JsonNode v, String at) throws Malformed {
        if (v == null) {
            throw new Malformed(at, "missing");
        }
        if (!v.canConvertToExactIntegral() || !v.isNumber() || v.asLong() < 0) {
            throw new Malformed(at, "expected a count (a whole number, 0 or more), found " + kind(v)
                    + (v.isValueNode() ? " " + v : ""));
        }
        return v.asLong();
    }

    private static String kind(JsonNode n) {
        if (n == null) {
            return "nothing";
        }
        return switch (n.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** {@code /findings/2/attempts} as {@code $.findings[2].attempts}. */
    static String path(JsonPointer p) {
        StringBuilder b = new StringBuilder("$");
        for (JsonPointer q = p; q != null && !q.matches(); q = q.tail()) {
            if (q.mayMatchElement()) {
                b.append('[').append(q.getMatchingIndex()).append(']');
            } else {
                b.append('.').append(q.getMatchingProperty());
            }
        }
        return b.toString();
    }
}
