package io.pcapdiag.cluster;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.io.BufferedInputStream;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * {@code --cluster PATH}: a file, or a directory of {@code *.json}, {@code *.yaml}, {@code *.yml} (sorted), as
 * {@code kubectl get ... -o json} (or {@code -o yaml}) writes them: {@code List} documents, single objects,
 * several YAML or JSON documents one after another. Objects are parsed with the fabric8 Kubernetes model, only the
 * properties pcapdiag reads ({@link ReadProperties}). One that cannot be read (an unknown kind, a field it reads
 * missing or of the wrong type, a duplicate) is skipped and said in one line naming the file and the JSON path; the
 * rest loads. A file that is not JSON or YAML at all fails the load.
 */
public final class Snapshot {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The model's classes, converted with only what pcapdiag reads of them ({@link ReadProperties#mapper()}). */
    private static final ObjectMapper MODEL = ReadProperties.mapper();
    /** The kinds the analysis reads; other kinds are counted as ignored. */
    static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "Service", Service.class, "EndpointSlice", EndpointSlice.class, "Pod", Pod.class, "Node", Node.class,
            "NetworkPolicy", NetworkPolicy.class, "ConfigMap", ConfigMap.class);

    private Snapshot() {
    }

    /** What a load read, and what it skipped and why. */
    public record Loaded(ClusterIndex index, List<String> problems, Map<String, Integer> loaded, Map<String, Integer> skipped) {
    }

    /**
     * Reads a snapshot.
     *
     * @throws ClusterException when a file cannot be read or is not JSON/YAML at all
     */
    public static Loaded load(Path path) throws ClusterException {
        return load(path, MODEL::treeToValue);
    }

    /**
     * How an object is converted to its kind's class: read from its tree as it stands (the mapper's treeToValue), not
     * written out and read back (convertValue, which took half of the conversion of a snapshot of 7,301 objects).
     */
    interface Convert {
        HasMetadata convert(JsonNode object, Class<? extends HasMetadata> kind) throws IOException;
    }

    /** {@link #load(Path)} converting the objects as given (a test's: with every property of the fabric8 model). */
    static Loaded load(Path path, Convert model) throws ClusterException {
        List<Path> files = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, Integer> skipped = new TreeMap<>();
        if (Files.isDirectory(path)) {
            List<Path> listed;
            try (Stream<Path> s = Files.list(path)) {
                listed = s.filter(p -> {
                    String n = p.getFileName().toString();
                    return n.endsWith(".json") || n.endsWith(".yaml") || n.endsWith(".yml");
                }).sorted().toList();
            } catch (IOException e) {
                throw new ClusterException(path + ": cannot list: " + e.getMessage(), e);
            }
            if (listed.isEmpty()) {
                throw new ClusterException(path + ": no *.json, *.yaml or *.yml file in it", null);
            }
            for (Path f : listed) {
                if (Files.isRegularFile(f)) {
                    files.add(f);
                } else {
                    // A FIFO so named would be waited on for ever, a directory would fail the rest: said, not read.
                    skipped.merge("not a regular file", 1, Integer::sum);
                    problems.add(f + ": not a regular file (" + (Files.isDirectory(f) ? "a directory" : "a pipe or a device")
                            + ")");
                }
            }
        } else {
            files.add(path);
        }
        ClusterIndex.Builder b = new ClusterIndex.Builder();
        Map<String, Integer> loaded = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (Path f : files) {
            List<Problem> found = new ArrayList<>();
            Read read = parse(f, (at, o) -> add(model, b, at, o, found, loaded, skipped, seen));
            for (Problem p : found) {
                // A value's line continues its object's path: $.items[3].status.podIP: ...
                problems.add(f + ": " + p.at().path(read.documents() > 1) + (p.text().startsWith(".") ? "" : ": ") + p.text());
            }
            if (read.rest() != null) {
                skipped.merge("text after the last document", 1, Integer::sum);
                problems.add(f + ": " + read.rest());
            }
        }
        return new Loaded(b.build(), problems, loaded, skipped);
    }

    /** Where {@link #parse} hands each object of a file, with where it is in the file. */
    private interface Sink {
        void object(At at, JsonNode object);
    }

    /**
     * Where an object is: its document (a YAML file's, a JSON array's element) and its index in that document's
     * {@code items}, -1 for the document itself. Named as a JSON path once the file is read: {@code $.items[3]}, or
     * {@code $[1].items[3]} in a file of more than one document.
     */
    private record At(int document, int item) {
        String path(boolean documents) {
            return (documents ? "$[" + document + "]" : "$") + (item < 0 ? "" : ".items[" + item + "]");
        }
    }

    /** A line about an object, its path named when the file's documents are counted. */
    private record Problem(At at, String text) {
    }

    /** What a file held: how many documents, and why the text after the last one was not read (null: there is none). */
    private record Read(int documents, String rest) {
    }

    /**
     * Hands each object of a file to {@code sink}, in order, and returns what the file held: how many documents, and
     * why text after the last one was not read (JSON's; YAML's fails the file as a fault inside one does). A JSON
     * object is read field by field and a List's items one at a time, each converted before the next is read; a YAML
     * file document by document, a List's items one at a time too ({@link YamlItems}): a snapshot is never one tree
     * (a List of 29,204 objects, 103 MB, ran out of the launcher's 512 MB heap as a tree).
     */
    private static Read parse(Path f, Sink sink) throws ClusterException {
        // A FileInputStream, not Files.newInputStream's: that one's available() asks a pipe for its position, and the
        // buffered stream asks available(): --cluster <(kubectl get ... -o json) failed with "Illegal seek".
        try (InputStream in = new BufferedInputStream(new FileInputStream(f.toFile()))) {
            // JSON by its first character that is not white space; what is read to find it is read again after.
            in.mark(Integer.MAX_VALUE);
            int c;
            do {
                c = in.read();
            } while (c >= 0 && c < 0x80 && Character.isWhitespace(c));
            in.reset();
            in.mark(0); // kept no further: a mark still set would hold every byte read after it
            // Decoded strictly, JSON and YAML alike: a byte that is not UTF-8 fails the read.
            Reader r = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder());
            return c == '{' || c == '[' ? json(f, r, sink) : new Read(yaml(f, r, sink), null);
        } catch (CharacterCodingException e) {
            // The decoder says only "Input length = 1", and its reader decodes ahead: a file is read again for the byte.
            long at = Files.isRegularFile(f) ? firstNotUtf8(f) : -1;
            throw new ClusterException(f + ": not UTF-8 text" + (at < 0 ? "" : " at byte " + at), e);
        } catch (FileNotFoundException e) {
            throw new ClusterException(f + (!Files.exists(f) ? ": no such file" : !Files.isReadable(f) ? ": permission denied"
                    : ": cannot read: " + e.getMessage()), e);
        } catch (IOException e) {
            throw new ClusterException(f + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** The offset of the first byte of {@code f} that is not UTF-8, or -1 (none, or the file cannot be read again). */
    private static long firstNotUtf8(Path f) {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder();
        ByteBuffer in = ByteBuffer.allocate(64 << 10);
        CharBuffer out = CharBuffer.allocate(64 << 10);
        long consumed = 0;
        try (InputStream s = Files.newInputStream(f)) {
            boolean end = false;
            while (!end) {
                int n = s.read(in.array(), in.position(), in.remaining());
                end = n < 0;
                in.position(in.position() + Math.max(n, 0));
                in.flip();
                int start = in.position();
                CoderResult r = d.decode(in, out.clear(), end);
                consumed += in.position() - start;
                if (r.isError()) {
                    return consumed;
                }
                in.compact();
            }
        } catch (IOException e) {
            return -1;
        }
        return -1;
    }

    /**
     * A YAML file, document by document, a List's items as they are read. A document that is neither a mapping nor
     * empty fails the file, after the rest is read: a fault of YAML further on is the one said, as when it was read
     * whole.
     */
    private static int yaml(Path f, Reader r, Sink sink) throws ClusterException, IOException {
        Object[] outcome = new Object[1];
        Thread reader = new Thread(null, () -> {
            try {
                outcome[0] = yamlHere(f, r, sink);
            } catch (ClusterException | IOException | RuntimeException | Error e) {
                outcome[0] = e;
            }
        }, "pcapdiag-yaml", YAML_STACK);
        reader.start();
        try {
            reader.join();
        } catch (InterruptedException e) {
            reader.interrupt();
            Thread.currentThread().interrupt();
            throw new ClusterException(f + ": interrupted while read", e);
        }
        if (outcome[0] instanceof Integer documents) {
            return documents;
        }
        if (outcome[0] instanceof ClusterException e) {
            throw e;
        }
        if (outcome[0] instanceof IOException e) {
            throw e;
        }
        if (outcome[0] instanceof RuntimeException e) {
            throw e;
        }
        throw (Error) outcome[0];
    }

    /**
     * The stack a YAML file is read on. snakeyaml-engine composes and constructs a node by recursion, and the
     * conversion to a tree recurses again, about fifteen frames a level: the 1,000 levels JSON is allowed need more
     * than a thread's default (a block mapping 1,000 deep overflowed the launcher's main thread).
     */
    private static final long YAML_STACK = 64L << 20;

    private static int yamlHere(Path f, Reader r, Sink sink) throws ClusterException, IOException {
        boolean[] streamed = new boolean[1];
        int[] document = new int[1];
        boolean notObjects = false;
        try {
            Iterator<Object> docs = YamlItems.documents(f.toString(), r, (i, item) -> {
                streamed[0] = true;
                sink.object(new At(document[0], i), item == null ? NullNode.getInstance() : JSON.valueToTree(item));
            });
            while (docs.hasNext()) {
                JsonNode doc = JSON.valueToTree(docs.next());
                if (doc != null && !doc.isNull() && !doc.isObject()) {
                    notObjects = true;
                } else if (!streamed[0]) {
                    document(document[0], doc, sink);
                }
                streamed[0] = false;
                document[0]++;
            }
        } catch (YamlItems.Limit e) {
            throw new ClusterException(f + ": line " + e.line() + ": " + e.getMessage() + "; not read", e);
        } catch (MarkedYamlEngineException e) {
            int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(1);
            throw new ClusterException(f + ": line " + line + ": not YAML: " + e.getProblem(), e);
        } catch (YamlEngineException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new ClusterException(f + ": not JSON or YAML: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw new ClusterException(f + ": not JSON or YAML: " + e.getMessage(), e);
        }
        if (notObjects) {
            throw new ClusterException(f + ": line 1: neither a JSON object nor YAML describing Kubernetes objects", null);
        }
        return document[0];
    }

    /**
     * A JSON file, streamed: decoded as it is read, an object field by field ({@link #document}). Its documents are its
     * top-level values one after another (kubectl's output appended to one file is several), an array's elements each.
     * Text after the last whole document that is not JSON is said and not read; a fault inside a document fails the file.
     */
    private static Read json(Path f, Reader r, Sink sink) throws ClusterException, IOException {
        try (JsonParser p = JSON.createParser(r)) {
            int d = 0;
            boolean between = false; // true once a top-level value is read whole, until the next one starts
            try {
                for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                    between = false;
                    if (t == JsonToken.START_OBJECT) {
                        document(p, d++, sink);
                    } else {
                        JsonNode value = JSON.readTree(p);
                        for (JsonNode element : value.isArray() ? value : List.of(value)) {
                            document(d++, element, sink);
                        }
                    }
                    between = true;
                }
            } catch (JsonProcessingException e) {
                if (!between) {
                    throw e;
                }
                return new Read(d, "line " + line(e) + ": the text after its last document is not JSON, not read: " + message(e));
            }
            return new Read(d, null);
        } catch (JsonProcessingException e) {
            throw new ClusterException(f + ": line " + line(e) + ": not JSON: " + message(e), e);
        }
    }

    private static String line(JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        return l == null ? "?" : String.valueOf(l.getLineNr());
    }

    private static String message(JsonProcessingException e) {
        return e.getOriginalMessage().lines().findFirst().orElse("");
    }

    /**
     * A JSON document that is one object, its fields read one by one and the items of a List as they come (of each
     * {@code items} array, were there two).
     */
    private static void document(JsonParser p, int d, Sink sink) throws IOException {
        ObjectNode doc = JSON.createObjectNode();
        boolean list = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            if (p.nextToken() == JsonToken.START_ARRAY && name.equals("items")) {
                list = true;
                int i = 0;
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    sink.object(new At(d, i++), JSON.readTree(p));
                }
            } else {
                doc.set(name, JSON.readTree(p));
            }
        }
        if (!list) {
            document(d, doc, sink);
        }
    }

    /**
     * A document read whole (a JSON array's element, a YAML document without items, an object without items): a
     * List's items, or the object (a List whose items are not an array too, counted as a kind not read).
     */
    private static void document(int d, JsonNode doc, Sink sink) {
        if (doc == null || doc.isNull() || doc.isMissingNode()) {
            return;
        }
        JsonNode items = doc.path("items");
        if (items.isArray()) {
            for (int i = 0; i < items.size(); i++) {
                sink.object(new At(d, i), items.get(i));
            }
        } else if (!"List".equals(doc.path("kind").asText()) || !items.isMissingNode()) {
            sink.object(new At(d, -1), doc);
        }
    }

    private static void add(Convert model, ClusterIndex.Builder b, At at, JsonNode o,
                            List<Problem> problems, Map<String, Integer> loaded, Map<String, Integer> skipped, Set<String> seen) {
        String kind = o.path("kind").asText("");
        Class<? extends HasMetadata> type = KINDS.get(kind);
        if (type == null) {
            skip(skipped, kind.isEmpty() ? "no kind" : "kind " + kind + " (not read)", problems,
                    kind.isEmpty() ? new Problem(at, "an object without kind") : null);
            return;
        }
        HasMetadata obj;
        try {
            obj = model.convert(o, type);
        } catch (IOException | RuntimeException e) {
            skip(skipped, "unreadable " + kind, problems, new Problem(at, kind + " cannot be read: " + unreadable(e, o, type)));
            return;
        }
        String ns = obj.getMetadata() == null ? null : obj.getMetadata().getNamespace();
        String name = obj.getMetadata() == null ? null : obj.getMetadata().getName();
        String id = kind + " " + (ns == null ? "" : ns + "/") + name;
        if (name == null || name.isEmpty()) {
            skip(skipped, kind + " without metadata.name", problems, new Problem(at, kind + " has no metadata.name"));
            return;
        }
        if ((ns == null || ns.isEmpty()) && type != Node.class) {
            // kubectl writes every namespaced object's namespace; without one, nothing says which policies apply to it
            skip(skipped, kind + " without metadata.namespace", problems, new Problem(at, kind + " has no metadata.namespace"));
            return;
        }
        if (!seen.add(id)) {
            skip(skipped, "duplicate " + kind, problems, new Problem(at, id + " appears again; the first is kept"));
            return;
        }
        String missing = b.add(obj);
        if (missing != null) {
            skip(skipped, kind + " " + missing, problems, new Problem(at, id + " " + missing));
            return;
        }
        loaded.merge(kind, 1, Integer::sum);
        for (String value : BadValues.of(kind, o)) {
            skip(skipped, "unreadable value", problems, new Problem(at, "." + value));
        }
    }

    /**
     * Why an object could not be converted, in the words of a snapshot: the path in the object, what the model expects
     * there and what the file has (Jackson's message names its classes, "Cannot construct instance of
     * `java.util.LinkedHashMap`", or a deserializer's failure, "String index out of range: 0").
     */
    static String unreadable(Exception e, JsonNode object, Class<?> kind) {
        Throwable t = e;
        while (t != null && !(t instanceof JsonMappingException)) {
            t = t.getCause(); // convertValue wraps it in an IllegalArgumentException
        }
        if (!(t instanceof JsonMappingException m) || m.getPath().isEmpty()) {
            return "a value of a form the model does not read";
        }
        StringBuilder path = new StringBuilder();
        JavaType type = MODEL.constructType(kind);
        JsonNode found = object;
        for (JsonMappingException.Reference r : m.getPath()) {
            if (r.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(r.getFieldName());
                found = found == null ? null : found.get(r.getFieldName());
                type = type == null ? null : type.isMapLikeType() ? type.getContentType() : property(type, r.getFieldName());
            } else {
                path.append('[').append(r.getIndex()).append(']');
                found = found == null ? null : found.get(r.getIndex());
                type = type != null && (type.isCollectionLikeType() || type.isArrayType()) ? type.getContentType() : null;
            }
        }
        if (type == null && m instanceof MismatchedInputException mi && mi.getTargetType() != null) {
            type = MODEL.constructType(mi.getTargetType());
        }
        return path + ": expected " + (type == null ? "another value" : words(type)) + ", found " + words(found);
    }

    /** The type of the property {@code name} (its JSON name) of a model class, or null. */
    private static JavaType property(JavaType bean, String name) {
        return MODEL.getDeserializationConfig().introspect(bean).findProperties().stream()
                .filter(p -> p.getName().equals(name)).findFirst().map(p -> p.getPrimaryType()).orElse(null);
    }

    /** A model type as a snapshot's value is described. */
    private static String words(JavaType t) {
        Class<?> c = t.getRawClass();
        if (c == String.class) {
            return "a string";
        }
        if (c == Integer.class || c == int.class || c == Long.class || c == long.class) {
            return "an integer";
        }
        if (c == Boolean.class || c == boolean.class) {
            return "true or false";
        }
        if (c == IntOrString.class) {
            return "a port number or name";
        }
        if (t.isCollectionLikeType() || t.isArrayType()) {
            return "an array";
        }
        return "an object";
    }

    /** A value of the file as a snapshot's value is described. */
    private static String words(JsonNode v) {
        if (v == null || v.isMissingNode()) {
            return "nothing";
        }
        if (v.isNull()) {
            return "null";
        }
        if (v.isTextual()) {
            return v.asText().isEmpty() ? "an empty string" : "a string";
        }
        if (v.isIntegralNumber()) {
            return v.canConvertToInt() ? "an integer" : "an integer out of range";
        }
        if (v.isNumber()) {
            return "a number with a fraction";
        }
        if (v.isBoolean()) {
            return v.asText();
        }
        return v.isArray() ? "an array" : "an object";
    }

    private static void skip(Map<String, Integer> skipped, String why, List<Problem> problems, Problem line) {
        skipped.merge(why, 1, Integer::sum);
        if (line != null) {
            problems.add(line);
        }
    }
}
