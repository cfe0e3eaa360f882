package io.pcapdiag.causes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pcapdiag.cluster.ClusterIndex;
import io.pcapdiag.cluster.Snapshot;
import io.pcapdiag.context.ClusterContext;
import io.pcapdiag.context.Context;
import io.pcapdiag.context.NodeContext;
import io.pcapdiag.node.NodeFacts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The context files the lab wrote beside its captures ({@code captures/SCENARIO/node-facts.json}, {@code cluster.json}
 * and their {@code contradicted/} twins), read as {@code analyze --node-facts} and {@code --cluster} read them, as they
 * are or with one thing changed.
 */
final class LabContext {
    static final Path PROJECT = Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();

    private LabContext() {
    }

    static ObjectNode json(String path) {
        try {
            return (ObjectNode) JSON.readTree(PROJECT.resolve(path).toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The node facts at {@code path} (under the project), as {@code --node-facts} reads them. */
    static Context node(String path) {
        return node(path, doc -> { });
    }

    /** The node facts at {@code path} with {@code change} made to the document first. */
    static Context node(String path, Consumer<ObjectNode> change) {
        ObjectNode doc = json(path);
        change.accept(doc);
        return new NodeContext(read(doc, "node-facts", NodeFacts::read));
    }

    /** The cluster snapshot at {@code path}, as {@code --cluster} reads it. */
    static Context cluster(String path) {
        return cluster(path, doc -> { });
    }

    /** The cluster snapshot at {@code path} with {@code change} made to the document first. */
    static Context cluster(String path, Consumer<ObjectNode> change) {
        ObjectNode doc = json(path);
        change.accept(doc);
        ClusterIndex idx = read(doc, "cluster", p -> Snapshot.load(p).index());
        return new ClusterContext(() -> idx, "the cluster snapshot");
    }

    /** The interface named {@code name} of a node-facts document. */
    static ObjectNode iface(ObjectNode doc, String name) {
        for (JsonNode i : doc.get("interfaces")) {
            if (i.get("name").asText().equals(name)) {
                return (ObjectNode) i;
            }
        }
        throw new IllegalArgumentException("no interface " + name);
    }

    private interface Reader<T> {
        T read(Path p) throws Exception;
    }

    private static <T> T read(ObjectNode doc, String prefix, Reader<T> reader) {
        try {
            Path f = Files.createTempFile(prefix, ".json");
            try {
                JSON.writeValue(f.toFile(), doc);
                return reader.read(f);
            } finally {
                Files.deleteIfExists(f);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
