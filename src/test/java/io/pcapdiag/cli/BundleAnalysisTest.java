package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pcapdiag.collect.Bundle;
import io.pcapdiag.collect.Manifest;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code analyze BUNDLE} reads a bundle as if its captures, node facts and cluster snapshot had been given on their
 * own: for every lab scenario with a recording of {@code -i any} and its context, a bundle of the three gives the very
 * report the three files give (capture names aside), as a directory, as collect's .tar.gz and as GNU tar's.
 */
class BundleAnalysisTest {
    @Test
    void aBundleGivesTheReportOfItsFilesGivenSeparately(@TempDir Path tmp) throws Exception {
        List<Path> scenarios;
        try (Stream<Path> s = Files.list(CliRun.projectDir().resolve("captures"))) {
            scenarios = s.filter(d -> Files.exists(d.resolve("any.pcap")) && Files.exists(d.resolve("cluster.json"))
                    && Files.exists(d.resolve("node-facts.json"))).sorted().toList();
        }
        assertTrue(scenarios.size() >= 10, "scenarios: " + scenarios);
        boolean gnuTar = new ProcessBuilder("sh", "-c", "command -v tar").start().waitFor() == 0;
        int compared = 0;
        for (Path sc : scenarios) {
            String name = sc.getFileName().toString();
            Path dir = Files.createDirectories(tmp.resolve(name));
            for (String f : List.of("any.pcap", "cluster.json", "node-facts.json")) {
                Files.copy(sc.resolve(f), dir.resolve(f));
            }
            new Manifest(Manifest.VERSION, "test", "pdlab-node", "2026-11-24T03:07:06Z", "2026-11-24T03:07:16Z", "any",
                    List.of(new Manifest.CaptureFile("any.pcap", "any", "LINUX_SLL2", 0, 0, 0, null)),
                    "node-facts.json", "cluster.json", List.of()).write(dir);
            for (String format : List.of("text", "json")) {
                CliRun separate = CliRun.of("analyze", "--format", format, "--color", "never", "--cluster",
                        sc.resolve("cluster.json").toString(), "--node-facts", sc.resolve("node-facts.json").toString(),
                        sc.resolve("any.pcap").toString());
                String expected = separate.out().replace(sc.resolve("any.pcap").toString(), "CAPTURE");

                CliRun bundled = CliRun.of("analyze", "--format", format, "--color", "never", dir.toString());
                assertEquals(separate.code(), bundled.code(), name + ": " + bundled.err());
                assertEquals(expected, bundled.out().replace(dir.resolve("any.pcap").toString(), "CAPTURE"), name + " " + format);

                if (format.equals("text")) {
                    compared++;
                    continue; // the archives once, in JSON: the same bytes unpacked as in the directory
                }
                Path packed = tmp.resolve("packed-" + format).resolve(name + ".tar.gz");
                Files.createDirectories(packed.getParent());
                try (OutputStream o = Files.newOutputStream(packed)) {
                    Bundle.pack(dir, name, 0, o);
                }
                CliRun archived = CliRun.of("analyze", "--format", format, "--color", "never", packed.toString());
                assertEquals(expected, archived.out().replace(packed.resolveSibling(name).resolve("any.pcap").toString(), "CAPTURE"),
                        name + " " + format + " from the archive: " + archived.err());
                assertTrue(archived.err().contains("unpacked into " + packed.resolveSibling(name) + "/"), archived.err());
                // Again: the directory it unpacked into is read as it is.
                CliRun again = CliRun.of("analyze", "--format", format, "--color", "never", packed.toString());
                assertEquals(archived.out(), again.out());
                assertTrue(again.err().contains("read as unpacked before"), again.err());

                if (gnuTar) {
                    Path gnu = tmp.resolve("gnu-" + format).resolve(name + ".tgz");
                    Files.createDirectories(gnu.getParent());
                    Process p = new ProcessBuilder("tar", "czf", gnu.toString(), "-C", tmp.toString(), name)
                            .redirectErrorStream(true).start();
                    assertEquals(0, p.waitFor(), new String(p.getInputStream().readAllBytes()));
                    CliRun byGnu = CliRun.of("analyze", "--format", format, "--color", "never", gnu.toString());
                    assertEquals(expected, byGnu.out().replace(gnu.resolveSibling(name).resolve("any.pcap").toString(), "CAPTURE"),
                            name + " " + format + " from GNU tar's archive: " + byGnu.err());
                }
                compared++;
            }
        }
        assertTrue(compared >= 20);
    }

    @Test
    void whatABundleCouldNotTakeIsSaidAndGivenFilesReplaceItsOwn(@TempDir Path tmp) throws Exception {
        Path sc = CliRun.projectDir().resolve("captures/hairpin-no-brnf");
        Path dir = Files.createDirectories(tmp.resolve("b"));
        Files.copy(sc.resolve("any.pcap"), dir.resolve("any.pcap"));
        Files.copy(sc.resolve("node-facts.json"), dir.resolve("node-facts.json"));
        new Manifest(Manifest.VERSION, "test", "pdlab-node", "2026-11-24T03:07:06Z", "2026-11-24T03:07:16Z", "any",
                List.of(new Manifest.CaptureFile("any.pcap", "any", "LINUX_SLL2", 47, 3, 0, null)), "node-facts.json", null,
                List.of(new Manifest.NotTaken("cluster", "the API server at https://10.96.0.1/ did not answer: timeout"))).write(dir);
        CliRun r = CliRun.of("analyze", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains(dir + ": no cluster in the bundle: the API server at https://10.96.0.1/ did not answer: timeout"), r.err());
        assertTrue(r.err().contains(dir + ": the kernel dropped 3 packets on any during the capture"), r.err());

        CliRun given = CliRun.of("analyze", "--format", "json", "--cluster", sc.resolve("cluster.json").toString(),
                "--node-facts", sc.resolve("contradicted/node-facts.json").toString(), dir.toString());
        CliRun separate = CliRun.of("analyze", "--format", "json", "--cluster", sc.resolve("cluster.json").toString(),
                "--node-facts", sc.resolve("contradicted/node-facts.json").toString(), dir.resolve("any.pcap").toString());
        assertEquals(separate.out(), given.out());
        assertTrue(given.err().contains("the bundle's node facts are not read: --node-facts replaces them"), given.err());
    }

    @Test
    void aBundleThatCannotBeReadIsOneLine(@TempDir Path tmp) throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        CliRun r = CliRun.of("analyze", empty.toString());
        assertEquals(ExitCodes.NO_INPUT, r.code());
        assertEquals("pcapdiag: " + empty + ": is a directory, not a capture file\n", r.err());

        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("manifest.json"), "{\"bundle\": 1, \"captures\": [{\"file\": \"../x.pcap\","
                + " \"interface\": \"any\"}]}");
        Files.writeString(tmp.resolve("x.pcap"), "");
        r = CliRun.of("analyze", outside.toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertEquals("pcapdiag: " + outside + ": manifest.json names ../x.pcap, which is outside the bundle\n", r.err());

        Path newer = Files.createDirectories(tmp.resolve("newer"));
        Files.writeString(newer.resolve("manifest.json"), "{\"bundle\": 2}");
        r = CliRun.of("analyze", newer.toString());
        assertTrue(r.err().contains("is of bundle format 2, newer than this pcapdiag reads (1)"), r.err());

        Path notGzip = tmp.resolve("x.tar.gz");
        Files.writeString(notGzip, "not an archive");
        r = CliRun.of("analyze", notGzip.toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("pcapdiag: " + notGzip + ": not a gzip-compressed tar archive"), r.err());
        try (Stream<Path> s = Files.list(tmp)) {
            List<String> left = new ArrayList<>(s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".pcapdiag")).toList());
            assertEquals(List.of(), left, "a failed unpack leaves nothing behind");
        }
    }
}
