package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster snapshot or node facts malformed in any one place never stop the run: the object that cannot be read is
 * skipped with a line that names it, the path in it and what was expected there, the fact is unknown, the report is
 * written. Each case below stopped the run with a
 * NullPointerException (exit 4) until 2026-11-26; the sweep found them (31 of 3,000 changed snapshots).
 */
class MalformedContextTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private record Case(String kind, String line, Consumer<ObjectNode> change) {
    }

    @Test
    void anObjectMalformedThereIsSkippedWithALine(@TempDir Path dir) throws Exception {
        List<Case> cases = List.of(
                new Case("Pod", "Pod cannot be read: status.podIPs[0]: expected an object, found null",
                        o -> ((ArrayNode) o.path("status").path("podIPs")).insertNull(0)),
                new Case("Node", "Node cannot be read: status.addresses[0]: expected an object, found null",
                        o -> ((ArrayNode) o.path("status").path("addresses")).insertNull(0)),
                new Case("Service", "Service cannot be read: spec.ports[0]: expected an object, found null",
                        o -> ((ArrayNode) o.path("spec").path("ports")).insertNull(0)),
                new Case("EndpointSlice", "EndpointSlice cannot be read: endpoints[0]: expected an object, found null",
                        o -> ((ArrayNode) o.path("endpoints")).insertNull(0)),
                new Case("EndpointSlice", "EndpointSlice cannot be read: ports[0]: expected an object, found null",
                        o -> ((ArrayNode) o.path("ports")).insertNull(0)),
                new Case("Pod", "Pod cannot be read: metadata.labels.app: expected a string, found null",
                        o -> ((ObjectNode) o.path("metadata").path("labels")).putNull("app")),
                // Jackson's words were "Cannot construct instance of `java.util.LinkedHashMap`" and "String index out of
                // range: 0": what the model expects there is said instead.
                new Case("Pod", "Pod cannot be read: metadata.labels: expected an object, found a string",
                        o -> ((ObjectNode) o.path("metadata")).put("labels", "x")),
                new Case("EndpointSlice", "EndpointSlice cannot be read: ports[0].port: expected an integer, found an empty string",
                        o -> ((ObjectNode) o.path("ports").get(0)).put("port", "")),
                new Case("NetworkPolicy", "NetworkPolicy has no metadata.namespace",
                        o -> ((ObjectNode) o.path("metadata")).remove("namespace")),
                new Case("Pod", "Pod has no metadata.namespace",
                        o -> ((ObjectNode) o.path("metadata")).put("namespace", "")));
        Path scenario = PROJECT.resolve("captures/policy-reject");
        for (Case c : cases) {
            JsonNode snapshot = JSON.readTree(scenario.resolve("cluster.json").toFile());
            int at = -1;
            for (int i = 0; i < snapshot.path("items").size() && at < 0; i++) {
                if (snapshot.path("items").get(i).path("kind").asText().equals(c.kind())) {
                    at = i;
                }
            }
            c.change().accept((ObjectNode) snapshot.path("items").get(at));
            Path f = dir.resolve("cluster.json");
            JSON.writeValue(f.toFile(), snapshot);
            String[] err = new String[1];
            int code = run(err, "analyze", "--cluster", f.toString(), "--node-facts", scenario.resolve("node-facts.json").toString(),
                    scenario.resolve("any.pcap").toString());
            assertNotEquals(ExitCodes.INTERNAL, code, c.line() + "\n" + err[0]);
            assertTrue(err[0].contains("pcapdiag: " + f + ": $.items[" + at + "]: " + c.line()), c.line() + "\n" + err[0]);
        }
    }

    /**
     * A snapshot with a byte that is not UTF-8 says which byte (it said "cannot read: Input length = 1"), as JSON and
     * as YAML; node facts of zeros without end are not read into memory first (/dev/zero filled the heap: exit 4), and
     * a file of zeros, which Jackson reads as UTF-32, gives no byte offset of -1.
     */
    @Test
    void bytesThatAreNotTextSayWhereTheyStart(@TempDir Path dir) throws Exception {
        Path scenario = PROJECT.resolve("captures/policy-reject");
        String capture = scenario.resolve("any.pcap").toString();
        byte[] json = Files.readAllBytes(scenario.resolve("cluster.json"));
        int at = new String(json, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("\"name\"") + 9;
        json[at] = (byte) 0xff;
        for (String name : List.of("cluster.json", "cluster.yaml")) {
            Path f = dir.resolve(name);
            Files.write(f, json);
            String[] err = new String[1];
            assertEquals(ExitCodes.USAGE, run(err, "analyze", "--cluster", f.toString(), capture), err[0]);
            assertEquals("pcapdiag: --cluster " + f + ": not UTF-8 text at byte " + at, err[0].strip());
        }
        String[] err = new String[1];
        assertEquals(ExitCodes.USAGE, run(err, "analyze", "--node-facts", "/dev/zero", capture), err[0]);
        assertEquals("pcapdiag: --node-facts /dev/zero: line 1, column 2: not JSON: Illegal character ((CTRL-CHAR, code 0)):"
                + " only regular white space (\\r, \\n, \\t) is allowed between tokens", err[0].strip());
    }

    /**
     * A snapshot read from a pipe (--cluster <(kubectl get ... -o json), or /dev/stdin) gives the report the file gives:
     * it failed with "cannot read: Illegal seek" (the stream asked the pipe for its position); a missing file says so.
     */
    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSnapshotFromAPipeIsReadAsFromItsFile(@TempDir Path dir) throws Exception {
        Path scenario = PROJECT.resolve("captures/policy-reject");
        String capture = scenario.resolve("any.pcap").toString();
        Path fifo = dir.resolve("cluster.fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        Thread writer = new Thread(() -> {
            try (java.io.OutputStream o = Files.newOutputStream(fifo)) {
                Files.copy(scenario.resolve("cluster.json"), o);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        writer.start();
        CliRun piped = CliRun.of("analyze", "--format", "json", "--cluster", fifo.toString(), capture);
        writer.join();
        CliRun file = CliRun.of("analyze", "--format", "json", "--cluster", scenario.resolve("cluster.json").toString(),
                capture);
        assertEquals(ExitCodes.OK, piped.code(), piped.err());
        assertEquals(file.out(), piped.out());
        assertTrue(piped.out().contains("\"verdict\" : \"confirmed\""), piped.out());

        String[] err = new String[1];
        assertEquals(ExitCodes.USAGE, run(err, "analyze", "--cluster", dir.resolve("nope.json").toString(), capture));
        assertEquals("pcapdiag: --cluster " + dir.resolve("nope.json") + ": no such file", err[0].strip());

        // In a directory of snapshots, a FIFO so named was waited on for ever and a directory failed the rest.
        Path snapshots = Files.createDirectories(dir.resolve("snapshots").resolve("sub.json")).getParent();
        Files.copy(scenario.resolve("cluster.json"), snapshots.resolve("cluster.json"));
        assertEquals(0, new ProcessBuilder("mkfifo", snapshots.resolve("late.yaml").toString()).start().waitFor());
        CliRun listed = CliRun.of("analyze", "--format", "json", "--cluster", snapshots.toString(), capture);
        assertEquals(file.out(), listed.out());
        assertTrue(listed.err().contains("pcapdiag: " + snapshots.resolve("late.yaml") + ": not a regular file (a pipe or a"
                + " device); skipped"), listed.err());
        assertTrue(listed.err().contains("pcapdiag: " + snapshots.resolve("sub.json") + ": not a regular file (a"
                + " directory); skipped"), listed.err());
    }

    /**
     * An address, a block or a port the API server would refuse is a value skipped with a line naming the file and
     * its path (they passed without a word). A NetworkPolicy peer whose ipBlock cannot be read leaves the verdict
     * unknown when the block might hold the client (it silently did), and decides nothing when it cannot (a block of
     * the other family): the policy that admits no readable peer stays confirmed.
     */
    @Test
    void aBadAddressBlockOrPortIsASkippedValueWithALine(@TempDir Path dir) throws Exception {
        Path scenario = PROJECT.resolve("captures/policy-reject");
        record Value(String at, JsonNode value, String line, String verdict) {
        }
        List<Value> values = List.of(
                new Value("/items/2/status/podIPs/1/ip", F.textNode("999.1.1.1"),
                        "$.items[2].status.podIPs[1].ip: '999.1.1.1' is not an IP address; skipped", "confirmed"),
                new Value("/items/3/status/podIPs/1/ip", F.textNode("fe80::1%eth0"),
                        "$.items[3].status.podIPs[1].ip: 'fe80::1%eth0' is not an IP address; skipped", "confirmed"),
                new Value("/items/4/spec/ports/0/port", F.numberNode(99999),
                        "$.items[4].spec.ports[0].port: 99999 is not a port (1-65535); skipped", "confirmed"),
                new Value("/items/3/spec/containers/0/ports/0/containerPort", F.numberNode(-1),
                        "$.items[3].spec.containers[0].ports[0].containerPort: -1 is not a port (1-65535); skipped", "confirmed"),
                new Value("/items/6/spec/ingress/0/from/1", peer("10.0.0.0/99"), "$.items[6].spec.ingress[0].from[1].ipBlock.cidr:"
                        + " '10.0.0.0/99' is not a CIDR, so whether this peer admits an address it might hold is unknown; skipped", null),
                new Value("/items/6/spec/ingress/0/from/1", peer("garbage"),
                        "$.items[6].spec.ingress[0].from[1].ipBlock.cidr: 'garbage' is not a CIDR", null),
                new Value("/items/6/spec/ingress/0/from/1", peer("::/200"),
                        "$.items[6].spec.ingress[0].from[1].ipBlock.cidr: '::/200' is not a CIDR", "confirmed"),
                new Value("/items/6/spec/ingress/0/ports/0/port", F.numberNode(99999),
                        "$.items[6].spec.ingress[0].ports[0].port: 99999 is not a port (1-65535), so whether this rule admits a port"
                                + " it might name is unknown; skipped", "confirmed")); // its only peer admits no client
        for (Value v : values) {
            JsonNode snapshot = JSON.readTree(scenario.resolve("cluster.json").toFile());
            String parent = v.at().substring(0, v.at().lastIndexOf('/'));
            String last = v.at().substring(v.at().lastIndexOf('/') + 1);
            JsonNode container = snapshot.at(parent);
            if (container instanceof ArrayNode a) {
                int i = Integer.parseInt(last);
                if (i < a.size()) {
                    a.set(i, v.value());
                } else {
                    a.add(v.value());
                }
            } else {
                ((ObjectNode) container).set(last, v.value());
            }
            Path f = dir.resolve("cluster.json");
            JSON.writeValue(f.toFile(), snapshot);
            CliRun r = CliRun.of("analyze", "--format", "json", "--cluster", f.toString(), scenario.resolve("any.pcap").toString());
            assertEquals(ExitCodes.OK, r.code(), r.err());
            assertTrue(r.err().contains("pcapdiag: " + f + ": " + v.line()), v.line() + "\n" + r.err());
            JsonNode causes = JSON.readTree(r.out()).path("findings").get(0).path("causes");
            String verdict = null;
            for (JsonNode c : causes) {
                if (c.path("id").asText().equals("network-policy")) {
                    verdict = c.path("verdict").asText();
                }
            }
            assertEquals(v.verdict() == null ? "unknown" : v.verdict(), verdict, v.line());
        }
    }

    private static JsonNode peer(String cidr) {
        ObjectNode p = F.objectNode();
        p.putObject("ipBlock").put("cidr", cidr);
        return p;
    }

    /**
     * A YAML snapshot with a node that contains itself, or nested past JSON's 1,000 levels, ends the run in one line
     * naming the file and exit 2 (usage), not in a StackOverflowError, a thousand lines of stack and exit 1 (which a CI
     * gate reads as findings); under check, that directory alone fails and the others keep their results (the whole
     * check ended in exit 4).
     */
    @Test
    void aYamlSnapshotPastTheLimitsIsOneLineAndUnderCheckItsDirectoryAlone(@TempDir Path dir) throws Exception {
        Path scenario = PROJECT.resolve("captures/policy-reject");
        Path self = Files.writeString(dir.resolve("self.yaml"), "apiVersion: v1\nkind: Pod\nmetadata: &m {name: a, namespace: b, x: *m}\n");
        Path deep = Files.writeString(dir.resolve("deep.yaml"), "apiVersion: v1\nkind: List\nitems:\n- "
                + "[".repeat(1_500) + "]".repeat(1_500) + "\n");
        for (Path f : List.of(self, deep)) {
            CliRun r = CliRun.of("analyze", "--cluster", f.toString(), scenario.resolve("any.pcap").toString());
            assertEquals(ExitCodes.USAGE, r.code(), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("pcapdiag: --cluster " + f + ": line "), r.err());
        }

        Path checked = Files.createDirectories(dir.resolve("checked"));
        for (String name : List.of("a-good", "b-bad", "c-good")) {
            Path d = Files.createDirectories(checked.resolve(name));
            Files.copy(scenario.resolve("any.pcap"), d.resolve("any.pcap"));
            Files.copy(scenario.resolve("cluster.json"), d.resolve("cluster.json"));
            Files.writeString(d.resolve("pcapdiag.check"), "--cluster " + (name.equals("b-bad") ? "../../self.yaml" : "cluster.json") + "\n");
        }
        CliRun.of("check", "--update", checked.toString()); // the baselines of the good directories
        CliRun r = CliRun.of("check", checked.toString());
        assertEquals(ExitCodes.FINDINGS, r.code(), r.out() + r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("FAIL    " + checked.resolve("b-bad/any.pcap") + ": " + checked.resolve("b-bad/pcapdiag.check") + ": --cluster "
                + self + ": line 3: alias *m inside the node &m it names: a structure that"
                + " contains itself; not read", lines.get(0));
        assertEquals("2 passed, 1 failed", lines.get(lines.size() - 1), r.out());
    }

    /**
     * Random changes, one to four at a time, to every scenario's snapshot and node facts (a value replaced by null, an
     * empty or odd string, a number out of range, an empty list or object, a selector, a port or a block of another
     * shape, or removed): no run ends in exit code 4. Slow: 3,000 runs over the snapshots, 1,000 over the node facts.
     */
    @Test
    @Tag("slow")
    void noChangeStopsTheRun(@TempDir Path dir) throws Exception {
        List<Path> scenarios = new ArrayList<>();
        try (Stream<Path> s = Files.list(PROJECT.resolve("captures"))) {
            s.filter(p -> Files.exists(p.resolve("cluster.json")) && Files.exists(p.resolve("node-facts.json")))
                    .sorted().forEach(scenarios::add);
        }
        assertTrue(scenarios.size() >= 20, scenarios.toString());
        Random random = new Random(7);
        List<String> stopped = new ArrayList<>();
        for (int i = 0; i < 4_000; i++) {
            Path scenario = scenarios.get(random.nextInt(scenarios.size()));
            boolean facts = i >= 3_000;
            JsonNode doc = JSON.readTree(scenario.resolve(facts ? "node-facts.json" : "cluster.json").toFile());
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
                change(doc, random);
            }
            Path f = dir.resolve(i + ".json");
            JSON.writeValue(f.toFile(), doc);
            String[] err = new String[1];
            int code = run(err, "analyze", "--cluster", facts ? scenario.resolve("cluster.json").toString() : f.toString(),
                    "--node-facts", facts ? f.toString() : scenario.resolve("node-facts.json").toString(),
                    scenario.resolve("any.pcap").toString());
            if (code == ExitCodes.INTERNAL || err[0].contains("\tat ")) {
                stopped.add(f + " (" + scenario.getFileName() + "): " + err[0].lines().filter(l -> l.contains("Exception")).findFirst().orElse(err[0]));
            } else {
                Files.delete(f);
            }
        }
        assertEquals(List.of(), stopped);
    }

    private static int run(String[] err, String... args) {
        StringWriter out = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(e));
        err[0] = e.toString();
        assertFalse(out.toString().isEmpty() && code != ExitCodes.USAGE, "no report: " + err[0]);
        return code;
    }

    private static final JsonNode[] VALUES = {
        F.nullNode(), F.textNode(""), F.textNode("x"), F.numberNode(0), F.numberNode(-1), F.numberNode(70_000), F.numberNode(1e40),
        F.numberNode(2_147_483_648L), F.booleanNode(true), F.arrayNode(), F.objectNode(), F.textNode("10.0.0.300"), F.textNode("::1"),
        F.textNode("0.0.0.0/0"), F.textNode("10.0.0.0/33"), F.textNode("fe80::1%eth0"), F.textNode("In"), F.textNode("NotIn"),
        F.textNode("Exists"), F.textNode("DoesNotExist"), F.textNode("-1"), F.textNode("65536"), F.textNode("443"), F.textNode("http"),
        F.textNode("TCP"), F.textNode("SCTP"), F.textNode("Local"), F.textNode("Cluster"), F.textNode("LoadBalancer"),
        F.textNode("None"), F.textNode("ipvs"), F.textNode("10.244.0.18"), F.textNode("203.0.113.10"), F.textNode("2001:db8:244::19"),
        F.objectNode().set("matchLabels", F.objectNode()),
        F.arrayNode().add(F.objectNode().put("key", "app").put("operator", "Bogus")),
        F.arrayNode().add(F.objectNode().put("port", 80).put("endPort", 10)),
        F.arrayNode().add(F.objectNode().set("ipBlock", F.objectNode().put("cidr", "x"))),
    };

    /** One value anywhere in the document replaced by one of {@link #VALUES}, or removed (one time in five). */
    private static void change(JsonNode doc, Random random) {
        List<JsonNode[]> places = new ArrayList<>();
        places(doc, places);
        if (places.isEmpty()) {
            return;
        }
        JsonNode[] place = places.get(random.nextInt(places.size()));
        JsonNode value = VALUES[random.nextInt(VALUES.length)].deepCopy();
        boolean remove = random.nextInt(5) == 0;
        if (place[0] instanceof ObjectNode o) {
            if (remove) {
                o.remove(place[1].asText());
            } else {
                o.set(place[1].asText(), value);
            }
        } else if (place[0] instanceof ArrayNode a) {
            if (remove) {
                a.remove(place[1].asInt());
            } else {
                a.set(place[1].asInt(), value);
            }
        }
    }

    /** Every value's place: its container and its field name or index. */
    private static void places(JsonNode n, List<JsonNode[]> out) {
        if (n instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                out.add(new JsonNode[] {o, F.textNode(name)});
                places(o.get(name), out);
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                out.add(new JsonNode[] {a, F.numberNode(i)});
                places(a.get(i), out);
            }
        }
    }
}
