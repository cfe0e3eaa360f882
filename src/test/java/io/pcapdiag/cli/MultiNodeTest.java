package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.CaptureFiles;
import io.pcapdiag.testing.PcapWriter;
import io.pcapdiag.testing.ReadAll;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Captures of several nodes ({@code --label FILE=NODE}): the same attempt seen in two captures is one
 * attempt even when the nodes' clocks disagree by far more than the tracker's window, because the clocks
 * are aligned from the attempts the captures share; the offset is reported.
 */
class MultiNodeTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CAPTURE = "captures/hairpin-no-brnf/any.pcap";

    /** A copy of a capture whose clock ran {@code shiftNanos} ahead. */
    private static Path shifted(Path dir, long shiftNanos) throws Exception {
        ReadAll all = ReadAll.of(CaptureFiles.open(new Capture(0, CliRun.projectDir().resolve(CAPTURE).toString())));
        PcapWriter w = PcapWriter.nano(ByteOrder.LITTLE_ENDIAN).linkType(all.frames.get(0).linkType());
        for (ReadAll.Copy c : all.frames) {
            w.packet(c.nanos() + shiftNanos, c.bytes(), c.origLen());
        }
        Path out = dir.resolve("node-b.pcap");
        Files.write(out, w.toByteArray());
        return out;
    }

    private static JsonNode analyze(String... args) throws Exception {
        CliRun r = CliRun.of(args);
        assertEquals(0, r.code(), r.err());
        return JSON.readTree(r.out());
    }

    @Test
    void labelledNodesWithSkewedClocksShareTheirAttempts(@TempDir Path dir) throws Exception {
        Path b = shifted(dir, 30_000_000_000L);
        JsonNode unlabelled = analyze("analyze", "--format", "json", CAPTURE, b.toString());
        assertEquals(2, unlabelled.get("attempts").get("total").asInt(), "30 s apart, unaligned: two attempts");

        JsonNode labelled = analyze("analyze", "--format", "json", "--label", CAPTURE + "=node-a", "--label",
                b + "=node-b/eth0", CAPTURE, b.toString());
        assertEquals(1, labelled.get("attempts").get("total").asInt(), "aligned: one attempt seen on both nodes");
        JsonNode clock = labelled.get("captures").get(1).get("clock");
        assertEquals("node-a", clock.get("reference").asText());
        assertEquals(30_000_000_000L, clock.get("offset_nanos").asLong());
        assertEquals(1, clock.get("shared_attempts").asInt());
        assertTrue(labelled.get("captures").get(0).get("clock").isNull(), "the reference node is not moved");
        assertEquals("node-b/eth0", labelled.get("captures").get(1).get("label").asText());
        JsonNode path = labelled.get("findings").get(0).get("path");
        assertTrue(path.findValuesAsText("node").contains("node-b"), path.toString());
    }

    @Test
    void aLabelForAFileNotOnTheCommandLineIsAUsageError() {
        CliRun r = CliRun.of("analyze", "--label", "other.pcap=node-a", CAPTURE);
        assertEquals(ExitCodes.USAGE, r.code());
        assertEquals("pcapdiag: --label other.pcap=node-a: other.pcap is not among the captures on the command line\n",
                r.err());
    }
}
