package io.pcapdiag.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.analysis.Reader;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.cluster.Snapshot;
import io.pcapdiag.context.ClusterContext;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.ElsewhereNode;
import io.pcapdiag.context.NodeContext;
import io.pcapdiag.diagnosis.Report;
import io.pcapdiag.node.NodeFacts;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The streaming JSON writer writes what data binding writes for the same DTO records (binding, under the report's
 * mapper, is the oracle): keys, order, nulls, numbers, pretty printing (the report's own printer, {@link Indented},
 * against binding's default one). On reports that fill every kind of field: names and causes, a clock offset, tunnels
 * (display_filter_decode_as), the attempt list with connect times.
 */
class JsonWriterTest {
    private static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();

    private static JsonReporter.Document document(List<Capture> captures, List<Context> context) {
        Analysis a = new Analysis(new Analysis.Options(Analysis.Options.DEFAULT_MAX_OPEN, Analysis.Options.DEFAULT_MAX_FINDINGS,
                context, 50));
        a.read(captures, Reader.BUILTIN::open, line -> { });
        return JsonReporter.document(Report.of(a.finish(), Integer.MAX_VALUE, null));
    }

    private static String streamed(JsonReporter.Document d) throws Exception {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JsonReporter.FACTORY.createGenerator(w)) {
            g.setPrettyPrinter(new Indented());
            JsonWriter.document(g, d, true);
        }
        return w.toString();
    }

    @Test
    void twoNodesWithContextAndAttemptsAsBindingWritesThem() throws Exception {
        Path dir = PROJECT.resolve("captures/cross-node-remote-drop");
        Snapshot.Loaded cluster = Snapshot.load(dir.resolve("cluster.json"));
        List<Context> context = List.of(new NodeContext(NodeFacts.read(dir.resolve("node-facts.json"))),
                new ElsewhereNode("pdlab-node-b", new NodeContext(NodeFacts.read(dir.resolve("node-b-facts.json")))),
                new ClusterContext(cluster::index, "the cluster snapshot"));
        JsonReporter.Document d = document(List.of(new Capture(0, dir.resolve("node-eth0.pcap").toString(), "pdlab-node"),
                new Capture(1, dir.resolve("node-b-any.pcap").toString(), "pdlab-node-b")), context);
        String json = streamed(d);
        assertTrue(json.contains("\"display_filter_decode_as\" : \"udp.port==8472,vxlan\""), json);
        assertTrue(json.contains("\"offset_nanos\""), json);
        assertTrue(json.contains("\"connect_ms\" : null"), json);
        assertEquals(JsonReporter.Binding.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(d), json);
    }

    @Test
    void answeredAttemptsAndSeveralPatternsAsBindingWritesThem() throws Exception {
        for (String c : List.of("captures/delayed-connect/any.pcap", "captures/hairpin-no-brnf/any.pcap",
                "captures/vip-local-reject-v6/any-snap96.pcap", "captures/healthy-direct/pod-eth0.pcap")) {
            JsonReporter.Document d = document(List.of(new Capture(0, PROJECT.resolve(c).toString())), List.of());
            assertEquals(JsonReporter.Binding.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(d), streamed(d), c);
        }
    }
}
