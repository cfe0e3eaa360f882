package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code pcapdiag check} through the real CLI, on copies of the regression captures and their goldens. */
class CheckCommandTest {
    @TempDir
    Path dir;

    private static final Path CAPTURES = CliRun.projectDir().resolve("captures");

    /** Copies {@code scenario/file} and its JSON golden into {@code dir/scenario/}. */
    private Path copy(String scenario, String file) throws IOException {
        Path to = dir.resolve(scenario);
        Files.createDirectories(to);
        Files.copy(CAPTURES.resolve(scenario).resolve(file), to.resolve(file));
        Path golden = CAPTURES.resolve(scenario).resolve(file + ".expected.json");
        if (Files.exists(golden)) {
            Files.copy(golden, to.resolve(file + ".expected.json"));
        }
        return to.resolve(file);
    }

    private static String baseline(Path capture) throws IOException {
        return Files.readString(capture.resolveSibling(capture.getFileName() + ".expected.json"));
    }

    private static void baseline(Path capture, String text) throws IOException {
        Files.writeString(capture.resolveSibling(capture.getFileName() + ".expected.json"), text);
    }

    @Test
    void aChangedBaselineFailsWithADiffAndValidJUnitXmlAndUpdateRestoresIt() throws Exception {
        Path a = copy("hairpin-no-brnf", "any.pcap");
        Path b = copy("closed-port", "any.pcap");
        String original = baseline(a);
        baseline(a, original.replaceFirst("\"attempts\" : 1,", "\"attempts\" : 4,")
                .replaceFirst("\"responder\" : \"10\\.244\\.0\\.19:80\"", "\"responder\" : \"10.244.0.99:80\""));
        Path junit = dir.resolve("report.xml");

        CliRun r = CliRun.of("check", "--junit", junit.toString(), dir.toString());
        assertEquals(ExitCodes.FINDINGS, r.code(), r.out() + r.err());
        assertEquals(List.of(
                "FAIL    " + a + ": 1 changed (baseline any.pcap.expected.json)",
                "    ~ nat-bypass-reply 10.244.0.18 -> 10.96.10.80:8080: responder 10.244.0.99:80 -> 10.244.0.19:80;"
                        + " attempts 4 -> 1",
                "1 passed, 1 failed"), r.out().lines().toList());

        validates(junit);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        NodeList cases = doc.getElementsByTagName("testcase");
        assertEquals(2, cases.getLength());
        NodeList failures = doc.getElementsByTagName("failure");
        assertEquals(1, failures.getLength());
        Element failure = (Element) failures.item(0);
        assertEquals(a.toString(), ((Element) failure.getParentNode()).getAttribute("file"));
        assertEquals("1 changed (baseline any.pcap.expected.json)", failure.getAttribute("message"));
        assertTrue(failure.getTextContent().contains("attempts 4 -> 1"), failure.getTextContent());
        assertEquals(b.toString(), ((Element) cases.item(0)).getAttribute("file"));

        CliRun u = CliRun.of("check", "--update", dir.toString());
        assertEquals(ExitCodes.OK, u.code(), u.out() + u.err());
        assertTrue(u.out().startsWith("updated " + a + ": baseline rewritten: 1 changed"), u.out());
        assertTrue(u.out().endsWith("2 passed, 0 failed (1 baselines updated, 0 created)" + System.lineSeparator()),
                u.out());
        CliRun again = CliRun.of("check", dir.toString());
        assertEquals(ExitCodes.OK, again.code(), again.out());
        assertEquals("2 passed, 0 failed" + System.lineSeparator(), again.out());
    }

    private static void validates(Path xml) throws Exception {
        var schema = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI)
                .newSchema(CheckCommandTest.class.getResource("/junit.xsd"));
        schema.newValidator().validate(new StreamSource(xml.toFile()));
    }

    @Test
    void theSchemaRejectsWhatIsNotJUnitXml() throws Exception {
        Path bad = dir.resolve("bad.xml");
        Files.writeString(bad, "<testsuites><testsuite name='x' tests='one' failures='0' errors='0'/></testsuites>");
        org.junit.jupiter.api.Assertions.assertThrows(org.xml.sax.SAXException.class, () -> validates(bad));
    }

    @Test
    void aMissingBaselineFailsAndUpdateCreatesItButNeverDeletesOne() throws IOException {
        Path a = copy("closed-port", "any.pcap");
        Files.delete(a.resolveSibling("any.pcap.expected.json"));
        Path orphan = dir.resolve("gone").resolve("old.pcap.expected.json");
        Files.createDirectories(orphan.getParent());
        Files.writeString(orphan, "{\"findings\": []}");

        CliRun r = CliRun.of("check", dir.toString());
        assertEquals(ExitCodes.FINDINGS, r.code());
        assertEquals(List.of(
                "FAIL    " + a + ": no baseline any.pcap.expected.json (pcapdiag check --update writes it)",
                "FAIL    " + orphan + ": baseline without its capture old.pcap (restore the capture, or delete the baseline)",
                "0 passed, 2 failed"), r.out().lines().toList());

        CliRun u = CliRun.of("check", "--update", dir.toString());
        assertEquals(ExitCodes.FINDINGS, u.code(), "the orphan still fails");
        assertTrue(u.out().startsWith("new     " + a + ": baseline written: any.pcap.expected.json"), u.out());
        assertTrue(Files.exists(orphan), "--update never deletes a baseline");
        assertEquals(Files.readString(CAPTURES.resolve("closed-port/any.pcap.expected.json"))
                .replace("captures/closed-port/any.pcap", a.toString()), baseline(a));
    }

    @Test
    void aBaselineThatCannotBeWrittenSaysWhyAndNamesWhatIsInTheWay() throws IOException {
        Path a = copy("closed-port", "any.pcap");
        Path baseline = a.resolveSibling("any.pcap.expected.json");
        Files.delete(baseline);
        Path tmp = a.resolveSibling(".any.pcap.expected.json.tmp");
        Files.createDirectories(tmp.resolve("left-over"));

        CliRun u = CliRun.of("check", "--update", dir.toString());
        assertEquals(ExitCodes.FINDINGS, u.code());
        assertEquals(List.of("FAIL    " + a + ": cannot write " + baseline
                + ": .any.pcap.expected.json.tmp is in the way (not a file): Is a directory",
                "0 passed, 1 failed (0 baselines updated, 0 created)"),
                u.out().lines().toList());
        assertFalse(Files.exists(baseline));

        Files.delete(tmp.resolve("left-over"));
        Files.delete(tmp);
        Path elsewhere = dir.resolve("elsewhere.txt");
        Files.writeString(elsewhere, "not a baseline");
        Files.createSymbolicLink(tmp, elsewhere);
        CliRun l = CliRun.of("check", "--update", dir.toString());
        assertEquals(ExitCodes.FINDINGS, l.code());
        assertEquals("FAIL    " + a + ": cannot write " + baseline
                + ": .any.pcap.expected.json.tmp is a symbolic link: refusing to write through it",
                l.out().lines().findFirst().orElseThrow());
        assertEquals("not a baseline", Files.readString(elsewhere), "a link where the baseline is written first is not followed");

        Files.delete(tmp);
        CliRun w = CliRun.of("check", "--update", dir.toString());
        assertEquals(ExitCodes.OK, w.code(), w.out());
        assertTrue(Files.exists(baseline));
        assertFalse(Files.exists(tmp, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void anUnreadableCaptureIsAFailedCaseWithItsErrorAndTheOthersAreStillChecked() throws IOException {
        copy("closed-port", "any.pcap");
        Path junk = dir.resolve("junk.pcap");
        Files.write(junk, new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24});
        Files.writeString(dir.resolve("junk.pcap.expected.json"), "{\"findings\": []}");
        CliRun r = CliRun.of("check", dir.toString());
        assertEquals(ExitCodes.FINDINGS, r.code());
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("FAIL    " + junk + ": pcapdiag: " + junk + ": "), lines.get(0));
        assertEquals("1 passed, 1 failed", lines.get(1));
    }

    @Test
    void aMalformedBaselineNamesTheFileAndTheJsonPath() throws IOException {
        Path a = copy("hairpin-no-brnf", "any.pcap");
        baseline(a, baseline(a).replaceFirst("\"attempts\" : 1,", "\"attempts\" : \"one\","));
        CliRun r = CliRun.of("check", a.toString());
        assertEquals(ExitCodes.FINDINGS, r.code());
        assertEquals("FAIL    " + a + ": " + a + ".expected.json: $.findings[0].attempts: expected a count (a whole number,"
                + " 0 or more), found a string \"one\"", r.out().lines().findFirst().orElseThrow());

        baseline(a, "{\"findings\": [ {\"pattern\": ");
        CliRun s = CliRun.of("check", a.toString());
        String first = s.out().lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("FAIL    " + a + ": " + a + ".expected.json: $.findings[0].pattern: not JSON (line 1,"),
                first);
    }

    @Test
    void theDirectorysOptionsFileGivesTheContextAndNamesAreCompared() throws IOException {
        Path ctx = dir.resolve("scenario").resolve("context");
        Files.createDirectories(ctx);
        Files.copy(CAPTURES.resolve("hairpin-no-brnf/cluster.json"), dir.resolve("scenario/cluster.json"));
        Files.copy(CAPTURES.resolve("hairpin-no-brnf/node-facts.json"), dir.resolve("scenario/node-facts.json"));
        Files.copy(CAPTURES.resolve("hairpin-no-brnf/any.pcap"), ctx.resolve("any.pcap"));
        String golden = Files.readString(CAPTURES.resolve("hairpin-no-brnf/context/any.pcap.expected.json"));
        Files.writeString(ctx.resolve("any.pcap.expected.json"), golden);
        Files.copy(CAPTURES.resolve("hairpin-no-brnf/context/pcapdiag.check"), ctx.resolve("pcapdiag.check"));
        assertEquals(ExitCodes.OK, CliRun.of("check", dir.toString()).code());

        Files.writeString(ctx.resolve("any.pcap.expected.json"), golden.replaceFirst("\"name\" : \"web\"", "\"name\" : \"api\""));
        CliRun r = CliRun.of("check", dir.toString());
        assertEquals(ExitCodes.FINDINGS, r.code());
        assertTrue(r.out().contains("~ nat-bypass-reply 10.244.0.18 -> 10.96.10.80:8080: target: service default/api port http"
                + " -> service default/web port http"), r.out());

        Files.writeString(ctx.resolve("pcapdiag.check"), "--format text\n");
        CliRun bad = CliRun.of("check", dir.toString());
        assertTrue(bad.out().contains(": " + ctx.resolve("pcapdiag.check") + ": line 1: --format is not an analysis option"),
                bad.out());
    }

    /**
     * A bad options file fails its directory's captures, each in one line that names the file (and its line where
     * check reads it), and the other directories are still checked. Help or version in it stopped the whole check with
     * an internal error (exit 4), as did a path with a NUL; a capture named in it passed unseen; analyze's usage
     * errors came with its 60 lines of usage text.
     */
    @Test
    void aBadOptionsFileFailsItsCapturesInOneLineAndTheRestAreChecked() throws IOException {
        copy("closed-port", "cni0.pcap");
        Path bad = copy("hairpin-no-brnf", "any.pcap");
        Path file = bad.resolveSibling("pcapdiag.check");
        String[][] cases = {
            {"--version", "line 1: --version is not an analysis option (check chooses the report's form)"},
            {"--lb-ip 10.0.0.1\n-vh", "line 2: -h (in -vh) is not an analysis option (check chooses the report's form)"},
            {"-fjson", "line 1: -f (in -fjson) is not an analysis option (check chooses the report's form)"},
            {"--lb-ip 10.0.0.1 any.pcap", "line 1: any.pcap is not an option (check analyses the directory's captures one"
                + " at a time; this file holds analyze's options for them)"},
            {"--cluster a\u0000b", "line 1: not a path: Nul character not allowed"},
            {"--lb-ip", "--lb-ip needs a value after it"},
            {"--color sometimes", "--color takes auto, always or never, not 'sometimes'"},
            {"--lb-ip 10.0.0.300", "not an IP address: 10.0.0.300"},
        };
        for (String[] c : cases) {
            Files.writeString(file, c[0] + "\n");
            CliRun r = CliRun.of("check", dir.toString());
            assertEquals(ExitCodes.FINDINGS, r.code(), c[0] + ": " + r.out() + r.err());
            assertEquals(List.of("FAIL    " + bad + ": " + file + ": " + c[1], "1 passed, 1 failed"), r.out().lines().toList(),
                    c[0]);
        }
        Files.write(file, new byte[] {'-', '-', 'l', 'b', '-', 'i', 'p', ' ', (byte) 0xff, '\n'});
        CliRun r = CliRun.of("check", dir.toString());
        assertEquals(List.of("FAIL    " + bad + ": " + file + ": not UTF-8 text at byte 8", "1 passed, 1 failed"),
                r.out().lines().toList());
    }

    /**
     * A FIFO named like a capture, or like its baseline, is a failed case: the check waited for a writer for ever (the
     * timeout says so).
     */
    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPipeNamedLikeACaptureOrItsBaselineIsAFailedCase() throws Exception {
        copy("closed-port", "cni0.pcap");
        Path fifo = dir.resolve("closed-port").resolve("live.pcap");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mk.waitFor());
        CliRun r = CliRun.of("check", dir.toString());
        assertEquals(List.of("FAIL    " + fifo + ": not a regular file (a pipe or a device): check reads recorded captures",
                "1 passed, 1 failed"), r.out().lines().toList());

        // A baseline that is a FIFO, the same.
        Files.delete(fifo);
        Path capture = dir.resolve("closed-port").resolve("cni0.pcap");
        Path baseline = capture.resolveSibling("cni0.pcap.expected.json");
        Files.delete(baseline);
        assertEquals(0, new ProcessBuilder("mkfifo", baseline.toString()).start().waitFor());
        CliRun b = CliRun.of("check", "--update", dir.toString());
        assertEquals(List.of("FAIL    " + capture + ": " + baseline + ": not a regular file (a pipe or a device)",
                "0 passed, 1 failed (0 baselines updated, 0 created)"), b.out().lines().toList());
    }

    /** A JUnit file that cannot be written says why in words: it said the path again, or an exception's class name. */
    @Test
    void aJUnitFileThatCannotBeWrittenSaysWhy() throws IOException {
        Path a = copy("closed-port", "cni0.pcap");
        Path missing = dir.resolve("nope").resolve("x.xml");
        CliRun r = CliRun.of("check", "--junit", missing.toString(), a.toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertEquals("pcapdiag: cannot write " + missing + ": no such directory", r.err().strip());
        CliRun full = CliRun.of("check", "--junit", "/dev/full", a.toString());
        assertEquals("pcapdiag: cannot write /dev/full: No space left on device", full.err().strip());
    }

    /**
     * --junit naming a capture, a baseline or an options file is refused before the run: it was written over the file
     * after it (a capture replaced by XML, or a baseline the next run compares with).
     */
    @Test
    void aJUnitFileNamedLikeWhatCheckReadsIsRefusedBeforeTheRun() throws IOException {
        Path a = copy("closed-port", "cni0.pcap");
        byte[] capture = Files.readAllBytes(a);
        for (String name : List.of("cni0.pcap", "other.pcapng.gz", "cni0.pcap.expected.json", "pcapdiag.check")) {
            Path target = dir.resolve(name);
            CliRun r = CliRun.of("check", "--update", "--junit", target.toString(), a.toString());
            assertEquals(ExitCodes.USAGE, r.code(), name);
            assertEquals("", r.out(), name);
            String kind = name.endsWith(".expected.json") ? "a baseline" : name.endsWith(".check") ? "an options file"
                    : "a capture";
            assertEquals("pcapdiag: --junit " + target + " is named like " + kind
                    + ", which check reads; name it *.xml", r.err().strip(), name);
        }
        assertTrue(java.util.Arrays.equals(capture, Files.readAllBytes(a)));
        assertFalse(Files.exists(dir.resolve("cni0.pcap.expected.json")), "the run did not happen");
        assertFalse(Files.exists(dir.resolve("pcapdiag.check")));
        assertEquals(ExitCodes.OK, CliRun.of("check", "--update", "--junit", dir.resolve("cni0.xml").toString(),
                a.toString()).code());
    }

    @Test
    void parallelAndSerialRunsPrintTheSame() {
        CliRun one = CliRun.of("check", "-v", "-j", "1", CAPTURES.toString());
        CliRun four = CliRun.of("check", "-v", "-j", "4", CAPTURES.toString());
        assertEquals(one.out(), four.out());
        assertTrue(one.out().lines().filter(l -> l.startsWith("ok      ")).count() > 10, one.out());
    }

    @Test
    void usageErrorsAndNoCaptures() throws IOException {
        CliRun missing = CliRun.of("check", dir.resolve("nope").toString());
        assertEquals(ExitCodes.USAGE, missing.code());
        assertEquals("pcapdiag: no such file or directory: " + dir.resolve("nope") + System.lineSeparator(), missing.err());

        CliRun empty = CliRun.of("check", dir.toString());
        assertEquals(ExitCodes.NO_INPUT, empty.code());
        assertTrue(empty.err().startsWith("pcapdiag: no capture"), empty.err());

        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "x", StandardCharsets.UTF_8);
        CliRun notCapture = CliRun.of("check", text.toString());
        assertEquals(ExitCodes.USAGE, notCapture.code());
        assertFalse(notCapture.err().isEmpty());
    }
}
