package io.pcapdiag.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A YAML snapshot is held to the limits a JSON one is, and YAML's aliases to limits of their own: each file past one
 * fails its load with one line naming the file and the line, where a StackOverflowError (a node that contains itself,
 * nesting 1,000 levels deep) or minutes of copying (one long scalar) ended the run.
 */
class YamlLimitsTest {
    private static final String POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: ns}\n";

    private static String failure(Path dir, String yaml) throws Exception {
        Path f = Files.writeString(dir.resolve("cluster.yaml"), yaml);
        return assertThrows(ClusterException.class, () -> Snapshot.load(f)).getMessage().replace(f.toString(), "FILE");
    }

    private static Snapshot.Loaded load(Path dir, String yaml) throws Exception {
        return Snapshot.load(Files.writeString(dir.resolve("cluster.yaml"), yaml));
    }

    @Test
    void aNodeThatContainsItselfIsNotRead(@TempDir Path dir) throws Exception {
        assertEquals("FILE: line 3: alias *m inside the node &m it names: a structure that contains itself; not read",
                failure(dir, "apiVersion: v1\nkind: Pod\nmetadata: &m {name: a, namespace: ns, self: *m}\n"));
        assertEquals("FILE: line 5: alias *l inside the node &l it names: a structure that contains itself; not read",
                failure(dir, "apiVersion: v1\nkind: List\nitems:\n- &l\n  - *l\n"));
        // An alias of a node already closed is YAML's ordinary repetition.
        Snapshot.Loaded ok = load(dir, "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n"
                + "  metadata: {name: a, namespace: ns, labels: &l {app: web}}\n  status: {podIP: 10.0.0.1}\n"
                + "- apiVersion: v1\n  kind: Pod\n  metadata: {name: b, namespace: ns, labels: *l}\n  status: {podIP: 10.0.0.2}\n");
        assertEquals(Map.of("Pod", 2), ok.loaded());
    }

    /** JSON's 1,000 levels, block and flow style, on the stack the reading has; one more fails the file. */
    @Test
    void nestingIsHeldToJsonsDepth(@TempDir Path dir) throws Exception {
        StringBuilder block = new StringBuilder("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n"
                + "  metadata: {name: a, namespace: ns}\n  status: {podIP: 10.0.0.1}\n  spec:\n");
        String indent = "    ";
        for (int level = 4; level < 1000; level++) { // the document, items, the Pod and spec are the first four
            block.append(indent).append("a:\n");
            indent += "  ";
        }
        block.append(indent).append("b: 1\n");
        assertEquals(Map.of("Pod", 1), load(dir, block.toString()).loaded());
        assertEquals("FILE: line 4: nested deeper than 1000 levels (the limit JSON is read with); not read",
                failure(dir, nested(1001)));
        assertEquals(Map.of(), load(dir, nested(1000)).loaded());
    }

    /** A document nested {@code levels} deep in flow style: the Pod's mapping is the first level. */
    private static String nested(int levels) {
        return POD + "spec: " + "[".repeat(levels - 1) + "]".repeat(levels - 1) + "\n";
    }

    /** An alias counts the levels of the node it repeats, and what aliases repeat is bounded (a billion laughs). */
    @Test
    void aliasesAreHeldToTheDepthAndARepetitionBound(@TempDir Path dir) throws Exception {
        String deep = POD + "status: &d " + "[".repeat(900) + "]".repeat(900) + "\nspec: {a: " + "[".repeat(200) + "*d"
                + "]".repeat(200) + "}\n";
        assertEquals("FILE: line 5: alias *d nests it deeper than 1000 levels (the limit JSON is read with); not read",
                failure(dir, deep));
        StringBuilder laughs = new StringBuilder(POD + "spec:\n  a0: &a0 [" + "x,".repeat(99) + "x]\n");
        for (int i = 1; i < 10; i++) {
            laughs.append("  a").append(i).append(": &a").append(i).append(" [").append(("*a" + (i - 1) + ",").repeat(4))
                    .append("*a").append(i - 1).append("]\n");
        }
        assertEquals("FILE: line 10: aliases repeat more than 100000 values in one document; not read", failure(dir, laughs.toString()));
    }

    /** One long scalar loads in time linear in its length: 4 MB took 11 s, 8 MB 40 s, 50 MB did not end. */
    @Test
    @Timeout(60)
    void aLongScalarIsReadOnce(@TempDir Path dir) throws Exception {
        long t0 = System.nanoTime();
        Snapshot.Loaded l = load(dir, POD + "status: {podIP: 10.0.0.1}\nspec: {a: \"" + "x".repeat(4_000_000) + "\"}\n");
        long millis = (System.nanoTime() - t0) / 1_000_000L;
        assertEquals(Map.of("Pod", 1), l.loaded());
        assertTrue(millis < 5_000, millis + " ms");
    }

    /** A scalar longer than the longest string JSON reads fails the file, and a line without end does when it passes it. */
    @Test
    @Tag("slow")
    void aScalarOrALineLongerThanJsonsLongestStringIsNotRead(@TempDir Path dir) throws Exception {
        assertEquals("FILE: line 4: a line longer than 20000000 characters (the limit of a JSON string); not read",
                failure(dir, POD + "spec: {a: " + "x".repeat(20_000_001) + "}\n"));
        assertEquals("FILE: line 4: a scalar longer than 20000000 characters (the limit JSON is read with); not read",
                failure(dir, POD + "spec: {a: \"" + "x ".repeat(5_000_000) + "\n" + "x ".repeat(5_000_001) + "\"}\n"));
    }
}
