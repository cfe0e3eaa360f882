package io.pcapdiag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerBase;
import com.fasterxml.jackson.databind.deser.DefaultDeserializationContext;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.std.ContainerDeserializerBase;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's objects are converted with only the properties pcapdiag reads ({@link ReadProperties}). Held three
 * ways: the getters of the model that pcapdiag's classes call (read from their bytecode with javap) are exactly the
 * properties kept; the objects of every snapshot under {@code captures/}, and of a fixture with most of what
 * {@code kubectl get -o json} shows, answer every one of those getters the same converted with every property; and
 * what is not read is skipped, malformed or not.
 */
class ReadPropertiesTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final Path FULL_OBJECTS = PROJECT.resolve("src/test/resources/io/pcapdiag/cluster/full-objects.json");
    private static final java.util.regex.Pattern CALL = java.util.regex.Pattern.compile(
            "Method (io/fabric8/kubernetes/api/model/[\\w/$]+)\\.((?:get|is)\\w+):\\(\\)");
    /** Every property kept on the kinds whether or not it is called: what an object says it is. */
    private static final Set<String> IDENTITY = Set.of("apiVersion", "kind");
    private static final ObjectMapper JACKSON = new ObjectMapper();
    /** The fabric8 model's own mapper, as its client configures it: every property, the model's annotations read. */
    private static final ObjectMapper MODEL_MAPPER = new ObjectMapper();
    private static final KubernetesSerialization EVERY_PROPERTY = new KubernetesSerialization(MODEL_MAPPER, true);
    private static final ObjectMapper READ_ONLY = ReadProperties.mapper();

    @Test
    void theGettersCalledAreThePropertiesKept() throws Exception {
        Set<Class<?>> reached = reachedFromKinds();
        Map<Class<?>, Set<String>> called = new TreeMap<>(java.util.Comparator.comparing(Class::getName));
        for (String[] call : modelGettersCalled()) {
            Class<?> owner = Class.forName(call[0].replace('/', '.'));
            List<Class<?>> onto = new ArrayList<>();
            for (Class<?> c : reached) {
                if (owner.isAssignableFrom(c)) {
                    onto.add(c);
                }
            }
            for (Class<?> c : onto) {
                String property = propertyOf(c, call[1]);
                assertNotNull(property, c.getName() + "." + call[1] + " is called but is no property Jackson knows");
                called.computeIfAbsent(c, k -> new TreeSet<>()).add(property);
            }
        }
        List<String> wrong = new ArrayList<>();
        called.forEach((c, props) -> {
            Set<String> kept = ReadProperties.READ.get(c);
            for (String p : props) {
                if (kept != null && !kept.contains(p)) {
                    wrong.add(c.getSimpleName() + "." + p + " is read by pcapdiag but skipped");
                }
            }
        });
        ReadProperties.READ.forEach((c, kept) -> {
            for (String p : kept) {
                if (!IDENTITY.contains(p) && !called.getOrDefault(c, Set.of()).contains(p)) {
                    wrong.add(c.getSimpleName() + "." + p + " is kept but no class of pcapdiag reads it");
                }
            }
            assertTrue(reached.contains(c), c.getName() + " is kept but no kind reaches it");
        });
        assertEquals(List.of(), wrong);
        // The scan itself: it finds the getters the cluster index is known to call.
        assertTrue(called.getOrDefault(Service.class, Set.of()).contains("spec"), called.toString());
        assertTrue(called.getOrDefault(io.fabric8.kubernetes.api.model.LoadBalancerIngress.class, Set.of()).contains("ipMode"),
                called.toString());
    }

    @Test
    void everySnapshotAnswersTheSameEitherWay() throws Exception {
        List<Path> snapshots = new ArrayList<>();
        try (Stream<Path> s = Files.walk(PROJECT.resolve("captures"))) {
            s.filter(p -> p.getFileName().toString().endsWith(".json") && p.getFileName().toString().startsWith("cluster"))
                    .sorted().forEach(snapshots::add);
        }
        assertTrue(snapshots.size() >= 20, "the scenarios' snapshots: " + snapshots);
        snapshots.add(FULL_OBJECTS);
        int objects = 0;
        for (Path f : snapshots) {
            for (JsonNode item : JACKSON.readTree(f.toFile()).path("items")) {
                Class<? extends HasMetadata> type = Snapshot.KINDS.get(item.path("kind").asText());
                if (type != null) {
                    sameAnswers(EVERY_PROPERTY.convertValue(item, type), READ_ONLY.convertValue(item, type),
                            f.getFileName() + " " + item.path("kind").asText() + " " + item.path("metadata").path("name").asText());
                    objects++;
                }
            }
            Snapshot.Loaded every = Snapshot.load(f, EVERY_PROPERTY::convertValue);
            Snapshot.Loaded read = Snapshot.load(f);
            assertEquals(every.problems(), read.problems(), f.toString());
            assertEquals(every.loaded(), read.loaded(), f.toString());
            assertEquals(every.skipped(), read.skipped(), f.toString());
            assertEquals(every.index().contradictions(), read.index().contradictions(), f.toString());
        }
        assertTrue(objects > 100, objects + " objects compared");
        assertEquals(Map.of("ConfigMap", 1, "EndpointSlice", 1, "NetworkPolicy", 1, "Node", 1, "Pod", 1, "Service", 1),
                Snapshot.load(FULL_OBJECTS).loaded());
    }

    /** The fixture as kubectl's YAML (one document per object, as -o yaml of several writes them) loads as its JSON. */
    @Test
    void yamlAsJson(@TempDir Path dir) throws Exception {
        com.fasterxml.jackson.dataformat.yaml.YAMLMapper yaml = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper();
        StringBuilder text = new StringBuilder();
        for (JsonNode item : JACKSON.readTree(FULL_OBJECTS.toFile()).path("items")) {
            text.append(yaml.writeValueAsString(item));
        }
        Path f = dir.resolve("cluster.yaml");
        Files.writeString(f, text);
        Snapshot.Loaded every = Snapshot.load(f, EVERY_PROPERTY::convertValue);
        Snapshot.Loaded read = Snapshot.load(f);
        assertEquals(Snapshot.load(FULL_OBJECTS).loaded(), read.loaded());
        assertEquals(every.loaded(), read.loaded());
        assertEquals(every.problems(), read.problems());
        assertEquals(every.skipped(), read.skipped());
        assertEquals(every.index().contradictions(), read.index().contradictions());
    }

    @Test
    void whatIsNotReadIsSkipped() throws Exception {
        JsonNode items = JACKSON.readTree(FULL_OBJECTS.toFile()).path("items");
        Pod every = EVERY_PROPERTY.convertValue(items.get(1), Pod.class);
        Pod read = READ_ONLY.convertValue(items.get(1), Pod.class);
        assertEquals(4, every.getSpec().getVolumes().size());
        assertTrue(read.getSpec().getVolumes().isEmpty(), "volumes converted");
        assertNotNull(every.getSpec().getAffinity());
        assertNull(read.getSpec().getAffinity());
        assertNull(read.getSpec().getContainers().get(0).getReadinessProbe());
        assertTrue(read.getStatus().getContainerStatuses().isEmpty());
        assertTrue(read.getMetadata().getManagedFields().isEmpty());
        assertTrue(read.getAdditionalProperties().isEmpty(), "skipped, not kept as unknown: " + read.getAdditionalProperties());
        assertTrue(read.getSpec().getAdditionalProperties().isEmpty(), read.getSpec().getAdditionalProperties().toString());
        Node node = READ_ONLY.convertValue(items.get(0), Node.class);
        assertTrue(node.getStatus().getImages().isEmpty());
        assertEquals(3, node.getStatus().getAddresses().size());
    }

    /** An object malformed where pcapdiag does not read it loads; one malformed where it reads is skipped, with its path. */
    @Test
    void malformedWhereNotReadLoads(@TempDir Path dir) throws Exception {
        ObjectNode list = (ObjectNode) JACKSON.readTree(FULL_OBJECTS.toFile());
        ObjectNode pod = (ObjectNode) list.path("items").get(1);
        ((ObjectNode) pod.path("spec")).put("volumes", 5);
        ((ObjectNode) pod.path("status")).put("startTime", true);
        ObjectNode node = (ObjectNode) list.path("items").get(0);
        ((ObjectNode) node.path("status")).put("nodeInfo", "x");
        ObjectNode service = (ObjectNode) list.path("items").get(2);
        ((ObjectNode) service.path("spec")).put("ports", "http");
        Path f = dir.resolve("cluster.json");
        JACKSON.writeValue(f.toFile(), list);

        Snapshot.Loaded read = Snapshot.load(f);
        assertEquals(Map.of("ConfigMap", 1, "EndpointSlice", 1, "NetworkPolicy", 1, "Node", 1, "Pod", 1), read.loaded());
        assertEquals(1, read.problems().size(), read.problems().toString());
        assertTrue(read.problems().get(0).startsWith(f + ": $.items[2]: Service cannot be read: "), read.problems().get(0));
        assertEquals(Map.of("unreadable Service", 1), read.skipped());

        Snapshot.Loaded every = Snapshot.load(f, EVERY_PROPERTY::convertValue);
        assertFalse(every.loaded().containsKey("Pod"), "the full model rejects the pod's volumes: " + every.loaded());
        assertTrue(every.problems().contains(read.problems().get(0)), "the Service's line as before: " + every.problems());
    }

    /**
     * Without the model's annotations, each kept property has the name, type and deserializer the model's own mapper
     * gives it (for a container, its contents' too); {@link IntOrString}'s alone is pcapdiag's. Every kept property's
     * type is a kept class, {@code IntOrString}, or the JDK's.
     */
    @Test
    void theKeptPropertiesAreDeserializedAsTheModelDoes() throws Exception {
        List<String> wrong = new ArrayList<>();
        for (Map.Entry<Class<?>, Set<String>> e : ReadProperties.READ.entrySet()) {
            Class<?> c = e.getKey();
            BeanDeserializerBase model = beanDeserializer(MODEL_MAPPER, c);
            BeanDeserializerBase read = beanDeserializer(READ_ONLY, c);
            Set<String> readNames = new TreeSet<>();
            read.properties().forEachRemaining(p -> readNames.add(p.getName()));
            if (!readNames.equals(new TreeSet<>(e.getValue()))) {
                wrong.add(c.getSimpleName() + " has " + readNames + ", not " + new TreeSet<>(e.getValue()));
                continue;
            }
            for (String name : e.getValue()) {
                SettableBeanProperty m = model.findProperty(name);
                SettableBeanProperty r = read.findProperty(name);
                String at = c.getSimpleName() + "." + name;
                if (m == null || !m.getType().equals(r.getType())) {
                    wrong.add(at + ": " + r.getType() + " against the model's " + (m == null ? "nothing" : m.getType()));
                    continue;
                }
                String modelDeser = deserializers(m.getValueDeserializer());
                String readDeser = deserializers(r.getValueDeserializer());
                if (!modelDeser.equals(readDeser) && !readDeser.contains("IntOrStringDeserializer")) {
                    wrong.add(at + ": " + readDeser + " against the model's " + modelDeser);
                }
                JavaType t = r.getType();
                while (t.isContainerType()) {
                    t = t.getContentType();
                }
                Class<?> raw = t.getRawClass();
                if (!ReadProperties.READ.containsKey(raw) && raw != IntOrString.class && !raw.getName().startsWith("java.")) {
                    wrong.add(at + ": " + raw.getName() + " is neither kept nor the JDK's");
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * What the model makes of a NetworkPolicy port, made by pcapdiag's deserializer: the same object loaded with the
     * same port, or the same line saying why it cannot be read.
     */
    @Test
    void intOrStringAsTheModel(@TempDir Path dir) throws Exception {
        String[] ports = {"8080", "\"http\"", "0", "-1", "2147483648", "1099511627776", "1.5", "true", "{}", "[]", "null",
            "\"\"", "[80]"};
        for (String port : ports) {
            Path f = dir.resolve("cluster.json");
            Files.writeString(f, "{\"apiVersion\": \"networking.k8s.io/v1\", \"kind\": \"NetworkPolicy\", "
                    + "\"metadata\": {\"name\": \"p\", \"namespace\": \"n\"}, \"spec\": {\"podSelector\": {}, "
                    + "\"ingress\": [{\"ports\": [{\"protocol\": \"TCP\", \"port\": " + port + "}]}]}}");
            Snapshot.Loaded model = Snapshot.load(f, EVERY_PROPERTY::convertValue);
            Snapshot.Loaded read = Snapshot.load(f);
            assertEquals(model.problems(), read.problems(), "port " + port);
            assertEquals(model.loaded(), read.loaded(), "port " + port);
            JsonNode np = JACKSON.readTree(f.toFile());
            Object a = outcome(() -> EVERY_PROPERTY.convertValue(np, NetworkPolicy.class));
            Object b = outcome(() -> READ_ONLY.treeToValue(np, NetworkPolicy.class));
            assertEquals(a, b, "port " + port);
        }
    }

    /** A conversion's port, or its failure's class. */
    private static Object outcome(java.util.concurrent.Callable<NetworkPolicy> convert) {
        try {
            return String.valueOf(convert.call().getSpec().getIngress().get(0).getPorts().get(0).getPort());
        } catch (Exception e) {
            return "failed";
        }
    }

    private static BeanDeserializerBase beanDeserializer(ObjectMapper m, Class<?> c) throws Exception {
        DefaultDeserializationContext ctxt = ((DefaultDeserializationContext) m.getDeserializationContext())
                .createInstance(m.getDeserializationConfig(), null, null);
        return (BeanDeserializerBase) ctxt.findRootValueDeserializer(m.constructType(c));
    }

    /** A deserializer's class, and its contents' for a container: what a property's values go through. */
    private static String deserializers(JsonDeserializer<?> d) {
        if (d instanceof ContainerDeserializerBase<?> c) {
            return d.getClass().getSimpleName() + "<" + deserializers(c.getContentDeserializer()) + ">";
        }
        return d == null ? "none" : d.getClass().getSimpleName();
    }

    /** The owner and name of every call of a model getter without arguments in pcapdiag's classes. */
    private static List<String[]> modelGettersCalled() throws Exception {
        Path classes = Path.of(Snapshot.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(classes)) {
            s.filter(p -> p.toString().endsWith(".class")).sorted().forEach(p -> files.add(p.toString()));
        }
        assertTrue(files.size() > 100, "pcapdiag's classes in " + classes);
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        List<String> args = new ArrayList<>(List.of("-c", "-p"));
        args.addAll(files);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, javap.run(new PrintWriter(out), new PrintWriter(err), args.toArray(String[]::new)), err.toString());
        List<String[]> calls = new ArrayList<>();
        Matcher m = CALL.matcher(out.toString());
        while (m.find()) {
            calls.add(new String[] {m.group(1), m.group(2)});
        }
        return calls;
    }

    /** The model's classes a snapshot's kinds reach through their properties, in the model that reads everything. */
    private static Set<Class<?>> reachedFromKinds() {
        Set<Class<?>> seen = new java.util.HashSet<>();
        Deque<Class<?>> todo = new ArrayDeque<>(Snapshot.KINDS.values());
        while (!todo.isEmpty()) {
            Class<?> c = todo.pop();
            if (!seen.add(c)) {
                continue;
            }
            BeanDescription d = JACKSON.getDeserializationConfig().introspect(JACKSON.constructType(c));
            for (BeanPropertyDefinition p : d.findProperties()) {
                JavaType t = p.getPrimaryType();
                while (t.isContainerType()) {
                    t = t.getContentType();
                }
                Class<?> r = t.getRawClass();
                if (r.getName().startsWith("io.fabric8.kubernetes.api.model.") && !r.isEnum() && !seen.contains(r)) {
                    todo.push(r);
                }
            }
        }
        return seen;
    }

    /** The JSON name of the property a getter reads. */
    private static String propertyOf(Class<?> c, String getter) {
        BeanDescription d = JACKSON.getSerializationConfig().introspect(JACKSON.constructType(c));
        for (BeanPropertyDefinition p : d.findProperties()) {
            if (p.getGetter() != null && p.getGetter().getName().equals(getter)) {
                return p.getName();
            }
        }
        return null;
    }

    private static Method getter(Class<?> c, String property) {
        BeanDescription d = JACKSON.getSerializationConfig().introspect(JACKSON.constructType(c));
        for (BeanPropertyDefinition p : d.findProperties()) {
            if (p.getName().equals(property) && p.getGetter() != null) {
                return (Method) p.getGetter().getMember();
            }
        }
        throw new AssertionError(c.getName() + " has no getter for " + property);
    }

    /** The two objects answer every getter kept for their class alike, down through the kept classes. */
    private static void sameAnswers(Object every, Object read, String at) throws Exception {
        if (every == null || read == null) {
            assertEquals(every, read, at);
            return;
        }
        if (every instanceof List<?> a && read instanceof List<?> b) {
            assertEquals(a.size(), b.size(), at);
            for (int i = 0; i < a.size(); i++) {
                sameAnswers(a.get(i), b.get(i), at + "[" + i + "]");
            }
            return;
        }
        if (every instanceof Map<?, ?> a && read instanceof Map<?, ?> b) {
            assertEquals(a.keySet(), b.keySet(), at);
            for (Object k : a.keySet()) {
                sameAnswers(a.get(k), b.get(k), at + "[" + k + "]");
            }
            return;
        }
        assertEquals(every.getClass(), read.getClass(), at);
        Set<String> kept = ReadProperties.READ.get(every.getClass());
        if (kept == null) {
            assertEquals(every, read, at);
            return;
        }
        for (String p : kept) {
            Method g = getter(every.getClass(), p);
            sameAnswers(g.invoke(every), g.invoke(read), at + "." + p);
        }
    }
}
