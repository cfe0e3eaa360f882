package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --evidence DIR}: one pcapng per finding that Wireshark's own reader opens, with exactly the
 * packets its display filter selects in the original capture, each commented with its role, on
 * interfaces named as in the original.
 */
class EvidenceTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A path --evidence cannot make a directory of is a usage error before the captures are read, and evidence that
     * cannot be written is one line and exit code 5 after the whole report: both ended the run in exit 4
     * (FileAlreadyExistsException, or any IOException of the writing).
     */
    @Test
    void evidenceThatCannotBeWrittenIsOneLine(@TempDir Path dir) throws Exception {
        String capture = "captures/hairpin-no-brnf/multi.pcapng";
        Path file = Files.writeString(dir.resolve("file"), "x");
        CliRun notDir = CliRun.of("analyze", "--evidence", file.toString(), capture);
        assertEquals(ExitCodes.USAGE, notDir.code(), notDir.err());
        assertEquals("pcapdiag: --evidence " + file + ": exists and is not a directory", notDir.err().strip());
        assertEquals("", notDir.out(), "nothing analysed");
        CliRun under = CliRun.of("analyze", "--evidence", file.resolve("x").toString(), capture);
        assertEquals("pcapdiag: --evidence " + file.resolve("x") + ": cannot create: Not a directory", under.err().strip());

        Path ev = dir.resolve("ev");
        CliRun first = CliRun.of("analyze", "--evidence", ev.toString(), capture);
        assertEquals(ExitCodes.OK, first.code(), first.err());
        Path written;
        try (Stream<Path> s = Files.list(ev)) {
            written = s.findFirst().orElseThrow();
        }
        Files.delete(written);
        Files.createDirectory(written); // where the file goes, a directory: its write fails
        CliRun r = CliRun.of("analyze", "--evidence", ev.toString(), capture);
        assertEquals(ExitCodes.OUTPUT, r.code(), r.err());
        assertEquals(first.out(), r.out(), "the whole report first");
        assertEquals("pcapdiag: --evidence " + ev + ": cannot write: Is a directory", r.err().strip());
    }

    /**
     * The evidence files' names are predictable: a symbolic link planted at one is replaced, not followed, and a file
     * there (a hard link to another's) is replaced, not truncated; the file the link names keeps its bytes (as root,
     * --evidence truncated a file outside DIR through a link). The evidence is private to whoever ran it, and no
     * temporary file is left behind.
     */
    @Test
    void aLinkAtAnEvidenceFilesNameIsReplacedNotWrittenThrough(@TempDir Path dir) throws Exception {
        String capture = "captures/hairpin-no-brnf/multi.pcapng";
        Path ev = dir.resolve("ev");
        assertEquals(ExitCodes.OK, CliRun.of("analyze", "--evidence", ev.toString(), capture).code());
        Path written;
        try (Stream<Path> s = Files.list(ev)) {
            written = s.findFirst().orElseThrow();
        }
        byte[] evidence = Files.readAllBytes(written);
        Path precious = Files.writeString(dir.resolve("precious"), "not evidence");
        for (boolean symbolic : new boolean[] {true, false}) {
            Files.delete(written);
            if (symbolic) {
                Files.createSymbolicLink(written, precious);
            } else {
                Files.createLink(written, precious);
            }
            CliRun r = CliRun.of("analyze", "--evidence", ev.toString(), capture);
            assertEquals(ExitCodes.OK, r.code(), r.err());
            assertEquals("not evidence", Files.readString(precious), symbolic ? "through a symbolic link" : "through a hard link");
            assertFalse(Files.isSymbolicLink(written));
            assertTrue(java.util.Arrays.equals(evidence, Files.readAllBytes(written)), "the evidence is in its place");
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(written)));
            try (Stream<Path> s = Files.list(ev)) {
                assertEquals(List.of(written), s.toList(), "nothing left beside it");
            }
        }
    }

    @Test
    void oneTsharkReadablePcapngPerFindingWithItsPacketsRolesAndInterfaces(@TempDir Path dir) throws Exception {
        if (!onPath("tshark")) {
            if (CliRun.inCi()) {
                fail("tshark is not installed (scripts/test installs it)");
            }
            Assumptions.abort("tshark is not installed");
        }
        String capture = "captures/hairpin-no-brnf/multi.pcapng";
        CliRun r = CliRun.of("analyze", "--format", "json", "--evidence", dir.toString(), capture);
        assertEquals(0, r.code(), r.err());
        JsonNode finding = JSON.readTree(r.out()).get("findings").get(0);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        assertEquals(1, files.size(), files.toString());
        assertTrue(r.err().contains("evidence: " + files.get(0)), r.err());

        List<String> evidence = tshark(files.get(0).toString(), null, "frame.interface_name", "frame.comment");
        List<String> original = tshark(CliRun.projectDir().resolve(capture).toString(), finding.get("display_filter").asText(),
                "frame.interface_name");
        assertEquals(original.size(), evidence.size(), "the same packets as the display filter selects: " + evidence);
        assertTrue(evidence.get(0).startsWith("veth-a\tsyn; finding 1: nat-bypass-reply 10.244.0.18 -> 10.96.10.80:8080"),
                evidence.get(0));
        for (String role : List.of("\tdnat-copy;", "\tsyn-ack;", "\tclient-rst;", "\tsyn retransmission 1;")) {
            assertTrue(evidence.stream().anyMatch(l -> l.contains(role)), role + " in " + evidence);
        }
        List<String> names = new ArrayList<>();
        evidence.forEach(l -> names.add(l.substring(0, l.indexOf('\t'))));
        assertEquals(original.stream().sorted().toList(), names.stream().sorted().toList(), "interfaces as in the original");
    }

    private static List<String> tshark(String file, String filter, String... fields) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file));
        if (filter != null) {
            cmd.addAll(List.of("-Y", filter));
        }
        cmd.addAll(List.of("-T", "fields"));
        for (String f : fields) {
            cmd.addAll(List.of("-e", f));
        }
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), String.join(" ", cmd));
        return out.lines().filter(l -> !l.isBlank()).toList();
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }
}
