package io.pcapdiag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * A YAML snapshot is read as snakeyaml-engine reads it, but a List's items one at a time as they are read
 * ({@link YamlItems}): the same documents and the same failures, the paths of {@link Snapshot}'s lines the same, no
 * limit on a document's size.
 */
class YamlItemsTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final YAMLMapper YAML = new YAMLMapper();

    /** Each case's YAML, and whether a document's items are expected to be handed over one by one. */
    private record Case(String name, String yaml, boolean streams) {
    }

    /**
     * What {@link YamlItems} gives, the items it handed over put back where they were, equals what snakeyaml-engine's
     * {@link Load} gives for the whole text: every scenario's snapshot as YAML, the fixture, and YAML's other ways to
     * write a List (several documents, anchors and aliases, merge keys, flow style, items that are not mappings);
     * items with an anchor or a tag of their own, or under an anchored document, are not streamed.
     */
    @Test
    void theDocumentsAreThoseLoadReads() throws Exception {
        List<Case> cases = new ArrayList<>();
        try (Stream<Path> s = Files.walk(PROJECT.resolve("captures"))) {
            for (Path f : s.filter(p -> p.getFileName().toString().equals("cluster.json")).sorted().toList()) {
                cases.add(new Case(f.toString(), YAML.writeValueAsString(JSON.readTree(f.toFile())), true));
            }
        }
        assertTrue(cases.size() >= 20, cases.size() + " snapshots");
        String fixture = YAML.writeValueAsString(JSON.readTree(
                PROJECT.resolve("src/test/resources/io/pcapdiag/cluster/full-objects.json").toFile()));
        cases.add(new Case("the fixture", fixture, true));
        String pod = "kind: Pod\n  metadata: {name: a, namespace: ns}\n";
        cases.add(new Case("several documents", "---\n" + fixture + "---\nkind: Service\nmetadata: {name: s}\n---\n"
                + "kind: List\nitems:\n- " + pod + "...\n---\n# nothing\n", true));
        cases.add(new Case("aliases", "kind: List\nitems:\n- &p " + pod + "- *p\n- &n 42\n- *n\n- kind: Pod\n  metadata:\n"
                + "    <<: {namespace: merged}\n    name: *n\n", true));
        cases.add(new Case("merge keys", "defaults: &d {namespace: ns, labels: {app: x}}\nkind: List\nitems:\n"
                + "- kind: Pod\n  metadata:\n    <<: *d\n    name: b\n", true));
        cases.add(new Case("flow style", "{kind: List, items: [{kind: Pod, metadata: {name: a}}, {kind: Node}]}\n", true));
        cases.add(new Case("not mappings", "kind: List\nitems:\n- a\n- 1\n- [1, [2]]\n- null\n-\n- {}\n- []\n", true));
        cases.add(new Case("nested items", "kind: List\nmetadata:\n  items: [1, 2]\nitems:\n- kind: Pod\n  items: [3]\n", true));
        cases.add(new Case("empty items", "kind: List\nitems: []\n", false));
        cases.add(new Case("anchored items", "kind: List\nitems: &all\n- " + pod + "again: *all\n", false));
        cases.add(new Case("tagged items", "kind: List\nitems: !!seq\n- " + pod, false));
        cases.add(new Case("anchored document", "&root\nkind: List\nitems:\n- " + pod, false));
        cases.add(new Case("a sequence of Lists", "- kind: List\n  items:\n  - " + pod.replace("\n  ", "\n    "), false));
        cases.add(new Case("items not a sequence", "kind: List\nitems: {kind: Pod}\n", false));
        cases.add(new Case("nothing", "", false));
        cases.add(new Case("comments", "# a\n---\n# b\n", false));
        for (Case c : cases) {
            int[] handed = new int[1];
            List<Object> streamed = read(c.yaml(), handed);
            assertEquals(load(c.yaml()), streamed, c.name());
            assertEquals(c.streams(), handed[0] > 0, c.name() + ": items handed over: " + handed[0]);
        }
    }

    /** What fails to load fails the same way, in the same words: the fault further on is found as when read whole. */
    @Test
    void failuresAreThoseLoadRaises() {
        List<String> bad = List.of(
                "kind: List\nitems:\n- {kind: Pod}\nitems: []\n",
                "kind: List\nitems:\n- *nowhere\n",
                "kind: List\nitems:\n- kind: Pod\n  kind: Node\n",
                "kind: List\nitems:\n- kind: Pod\n---\nkey: [unclosed\n",
                "kind: List\nitems:\n- kind: Pod\n  metadata: {name: a\n",
                "kind: List\nitems:\n- !!int nope\n",
                "kind: List\nitems:\n- \u0001\n");
        for (String yaml : bad) {
            RuntimeException whole = assertThrows(RuntimeException.class, () -> load(yaml), yaml);
            RuntimeException streamed = assertThrows(RuntimeException.class, () -> read(yaml, new int[1]), yaml);
            assertEquals(whole.getClass(), streamed.getClass(), yaml);
            assertEquals(whole.getMessage(), streamed.getMessage(), yaml);
        }
    }

    /**
     * The first item is handed over when only the start of the file is read: a List of 20,000 items is never held whole
     * (read whole, the first item came after the last byte).
     */
    @Test
    void itemsAreHandedOverAsTheyAreRead() {
        StringBuilder yaml = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n");
        for (int n = 0; n < 20_000; n++) {
            yaml.append("- kind: Pod\n  metadata:\n    name: pod-").append(n).append("\n    namespace: ns\n");
        }
        long[] readAtFirst = {-1};
        int[] count = new int[1];
        CountingReader r = new CountingReader(new StringReader(yaml.toString()));
        Iterator<Object> docs = YamlItems.documents("t", r, (i, item) -> {
            assertEquals(count[0]++, i);
            if (i == 0) {
                readAtFirst[0] = r.read;
            }
        });
        assertTrue(docs.hasNext());
        Object list = docs.next();
        assertTrue(list instanceof Map<?, ?> m && List.of().equals(m.get("items")) && m.size() == 3,
                "the document keeps its items: they were not handed over one by one");
        assertFalse(docs.hasNext());
        assertEquals(20_000, count[0]);
        assertTrue(readAtFirst[0] >= 0 && readAtFirst[0] < yaml.length() / 10,
                readAtFirst[0] + " of " + yaml.length() + " characters read when the first item came");
    }

    /**
     * A YAML snapshot of more than 3 MiB code points (snakeyaml-engine's default limit, which refused it) loads as the
     * same snapshot in JSON does. Slow: 7 s, writing and reading 4 MB of YAML.
     */
    @Test
    @org.junit.jupiter.api.Tag("slow")
    void aLargeYamlSnapshotLoadsAsItsJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("cluster.json");
        Path yaml = dir.resolve("cluster.yaml");
        JsonNode unnamed = JSON.createObjectNode().put("kind", "Pod"); // one line about it
        LargeSnapshotTest.writeList(JSON, json, 1_500, unnamed);
        LargeSnapshotTest.writeList(YAML, yaml, 1_500, unnamed);
        assertTrue(Files.readString(yaml).codePointCount(0, Files.readString(yaml).length()) > 3 * 1024 * 1024,
                Files.size(yaml) + " bytes");
        Snapshot.Loaded fromJson = Snapshot.load(json);
        Snapshot.Loaded fromYaml = Snapshot.load(yaml);
        assertEquals(Map.of("Pod", 1_500), fromYaml.loaded());
        assertEquals(fromJson.loaded(), fromYaml.loaded());
        assertEquals(fromJson.skipped(), fromYaml.skipped());
        assertEquals(List.of("F: $.items[1500]: Pod has no metadata.name"),
                fromYaml.problems().stream().map(l -> l.replace(yaml.toString(), "F")).toList());
        assertEquals(fromJson.problems().stream().map(l -> l.replace(json.toString(), "F")).toList(),
                fromYaml.problems().stream().map(l -> l.replace(yaml.toString(), "F")).toList());
    }

    /**
     * A line about an object names its path in the file: {@code $.items[i]} in a file of one document,
     * {@code $[d].items[i]} in one of several, the first document's too although its items are read before the second
     * is seen; a List whose items are not a list is a kind not read, in JSON and YAML (it stopped the run).
     */
    @Test
    void linesNameTheObjectsPath(@TempDir Path dir) throws Exception {
        String list = "kind: List\nitems:\n- kind: Pod\n  metadata: {namespace: ns}\n- {metadata: {name: x}}\n";
        Path one = Files.writeString(dir.resolve("one.yaml"), list);
        Path two = Files.writeString(dir.resolve("two.yaml"), list + "---\n" + list + "---\nkind: Pod\n");
        Path array = Files.writeString(dir.resolve("array.json"),
                "[{\"kind\":\"List\",\"items\":[{\"kind\":\"Pod\"}]}, {\"kind\":\"Pod\",\"metadata\":{}}]");
        assertEquals(List.of(one + ": $.items[0]: Pod has no metadata.name", one + ": $.items[1]: an object without kind"),
                Snapshot.load(one).problems());
        assertEquals(List.of(two + ": $[0].items[0]: Pod has no metadata.name", two + ": $[0].items[1]: an object without kind",
                        two + ": $[1].items[0]: Pod has no metadata.name", two + ": $[1].items[1]: an object without kind",
                        two + ": $[2]: Pod has no metadata.name"),
                Snapshot.load(two).problems());
        assertEquals(List.of(array + ": $[0].items[0]: Pod has no metadata.name", array + ": $[1]: Pod has no metadata.name"),
                Snapshot.load(array).problems());
        // JSON documents one after another (kubectl's output appended to one file): the second was never read.
        Path appended = Files.writeString(dir.resolve("appended.json"), "{\"kind\":\"List\",\"items\":[{\"kind\":\"Pod\"}]}\n"
                + "{\"kind\":\"List\",\"items\":[{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}, {\"kind\":\"Pod\"}]}\n");
        Snapshot.Loaded both = Snapshot.load(appended);
        assertEquals(List.of(appended + ": $[0].items[0]: Pod has no metadata.name", appended + ": $[1].items[1]: Pod has no metadata.name"),
                both.problems());
        assertEquals(Map.of("Node", 1), both.loaded());
        // Text after the last whole document is said in a line and not read (it went unsaid); a fault inside one fails.
        Path junk = Files.writeString(dir.resolve("junk.json"), "{\"kind\":\"List\",\"items\":[{\"kind\":\"Pod\"}]}\n}");
        Snapshot.Loaded read = Snapshot.load(junk);
        assertEquals(List.of(junk + ": $.items[0]: Pod has no metadata.name", junk + ": line 2: the text after its last document is not"
                + " JSON, not read: Unexpected close marker '}': no open Object to close"), read.problems());
        assertEquals(Map.of("Pod without metadata.name", 1, "text after the last document", 1), read.skipped());
        Path empty = Files.writeString(dir.resolve("empty.json"), "[] x");
        assertEquals(Map.of("text after the last document", 1), Snapshot.load(empty).skipped());
        Path cut = Files.writeString(dir.resolve("cut.json"), "{\"kind\":\"List\",\"items\":[]}\n{\"kind\":\"List\",\"ite");
        assertThrows(ClusterException.class, () -> Snapshot.load(cut));
        for (String name : List.of("odd.json", "odd.yaml")) {
            Path odd = Files.writeString(dir.resolve(name), "{\"kind\": \"List\", \"items\": {\"kind\": \"Pod\"}}");
            Snapshot.Loaded l = Snapshot.load(odd);
            assertEquals(Map.of("kind List (not read)", 1), l.skipped(), name);
            assertEquals(Map.of(), l.loaded(), name);
        }
    }

    /** The whole text, as snakeyaml-engine's Load reads it (with no limit on its size, as pcapdiag reads it). */
    private static List<Object> load(String yaml) {
        List<Object> docs = new ArrayList<>();
        new Load(LoadSettings.builder().setLabel("t").setCodePointLimit(Integer.MAX_VALUE).build())
                .loadAllFromString(yaml).forEach(docs::add);
        return docs;
    }

    /** The documents of {@link YamlItems}, each streamed List's items put back in its place. */
    @SuppressWarnings("unchecked")
    private static List<Object> read(String yaml, int[] handed) {
        Map<Integer, List<Object>> items = new LinkedHashMap<>();
        int[] doc = new int[1];
        Iterator<Object> it = YamlItems.documents("t", new StringReader(yaml), (i, item) -> {
            List<Object> l = items.computeIfAbsent(doc[0], d -> new ArrayList<>());
            assertEquals(l.size(), i);
            l.add(item);
            handed[0]++;
        });
        List<Object> docs = new ArrayList<>();
        while (it.hasNext()) {
            Object d = it.next();
            if (items.containsKey(doc[0])) {
                Map<Object, Object> m = (Map<Object, Object>) d;
                assertEquals(List.of(), m.get("items"));
                m.put("items", items.get(doc[0]));
            }
            docs.add(d);
            doc[0]++;
        }
        return docs;
    }

    private static final class CountingReader extends Reader {
        private final Reader in;
        long read;

        CountingReader(Reader in) {
            this.in = in;
        }

        @Override
        public int read(char[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            read += Math.max(n, 0);
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
