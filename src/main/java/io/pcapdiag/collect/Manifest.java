package io.pcapdiag.collect;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A bundle's {@code manifest.json}: what {@code collect} took and what it could not take, and why. The paths in it
 * are relative to the bundle's directory, and {@link #read} refuses any that would leave it.
 *
 * @param bundle     the format's version, {@link #VERSION}
 * @param pcapdiag   the version of the pcapdiag that wrote it
 * @param node       the node's name (the node facts'), or null when unknown
 * @param started    UTC, when the capture began
 * @param ended      UTC, when it ended
 * @param interfaces {@code -i} as given
 * @param captures   one per interface captured
 * @param nodeFacts  the node facts document (counters at the start and the end), or null when not taken
 * @param cluster    the cluster snapshot ({@code kubectl get -o json} List), or null when not taken
 * @param notTaken   what is missing and why
 */
public record Manifest(
        @JsonProperty("bundle") int bundle,
        @JsonProperty("pcapdiag") String pcapdiag,
        @JsonProperty("node") String node,
        @JsonProperty("started") String started,
        @JsonProperty("ended") String ended,
        @JsonProperty("interfaces") String interfaces,
        @JsonProperty("captures") List<CaptureFile> captures,
        @JsonProperty("node_facts") String nodeFacts,
        @JsonProperty("cluster") String cluster,
        @JsonProperty("not_taken") List<NotTaken> notTaken) {

    /** The file name that makes a directory a bundle. */
    public static final String FILE = "manifest.json";
    /** The format's version this pcapdiag writes and reads. */
    public static final int VERSION = 1;

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * One interface's capture.
     *
     * @param file               the pcap file, relative to the bundle
     * @param iface              the interface ({@code any}: every interface, Linux cooked v2 naming each)
     * @param linkType           its link type's name
     * @param packets            packets libpcap passed through the filter
     * @param droppedByKernel    packets the kernel dropped because the capture buffer was full
     * @param droppedByInterface packets the interface dropped
     * @param ended              why its capture ended early (the interface went away), or null
     */
    public record CaptureFile(
            @JsonProperty("file") String file,
            @JsonProperty("interface") String iface,
            @JsonProperty("link_type") String linkType,
            @JsonProperty("packets") long packets,
            @JsonProperty("dropped_by_kernel") long droppedByKernel,
            @JsonProperty("dropped_by_interface") long droppedByInterface,
            @JsonProperty("ended") String ended) {
    }

    /**
     * Something {@code collect} could not take.
     *
     * @param what {@code capture}, {@code node_facts} or {@code cluster}
     * @param why  one line
     */
    public record NotTaken(@JsonProperty("what") String what, @JsonProperty("why") String why) {
    }

    /** Writes it as {@code dir/manifest.json}. */
    public void write(Path dir) throws IOException {
        JSON.writeValue(dir.resolve(FILE).toFile(), this);
    }

    /**
     * Reads {@code dir/manifest.json}.
     *
     * @throws IOException when it cannot be read, is not a manifest, is of a newer format, or names a file outside
     *                     {@code dir} or one that is not there; the message says which, in one line
     */
    public static Manifest read(Path dir) throws IOException {
        Manifest m;
        try {
            m = JSON.readValue(dir.resolve(FILE).toFile(), Manifest.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IOException(FILE + " is not a bundle manifest: " + e.getOriginalMessage());
        }
        if (m.bundle() < 1) {
            throw new IOException(FILE + " is not a bundle manifest: no \"bundle\" version");
        }
        if (m.bundle() > VERSION) {
            throw new IOException(FILE + " is of bundle format " + m.bundle() + ", newer than this pcapdiag reads ("
                    + VERSION + "): analyze it with a newer pcapdiag");
        }
        List<String> files = new ArrayList<>();
        if (m.captures() != null) {
            m.captures().forEach(c -> files.add(c.file()));
        }
        files.add(m.nodeFacts());
        files.add(m.cluster());
        for (String f : files) {
            if (f != null) {
                inside(dir, f);
            }
        }
        return m;
    }

    /** {@code dir/name}, which must stay inside {@code dir} and exist. */
    static Path inside(Path dir, String name) throws IOException {
        Path p = dir.resolve(name).normalize();
        if (Path.of(name).isAbsolute() || !p.startsWith(dir.normalize())) {
            throw new IOException(FILE + " names " + name + ", which is outside the bundle");
        }
        if (!java.nio.file.Files.isRegularFile(p)) {
            throw new IOException(FILE + " names " + name + ", which is not in the bundle");
        }
        return p;
    }

    /** The captures, never null. */
    public List<CaptureFile> captureFiles() {
        return captures == null ? List.of() : captures;
    }
}
