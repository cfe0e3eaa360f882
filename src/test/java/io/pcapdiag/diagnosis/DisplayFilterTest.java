package io.pcapdiag.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.analysis.Analysis;
import io.pcapdiag.capture.Capture;
import io.pcapdiag.capture.Reader;
import io.pcapdiag.corpus.CaptureFilesOnDisk;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every finding's display filter, given to Wireshark's own engine ({@code tshark -Y}) on the original
 * capture, selects exactly the frames pcapdiag counts to the finding: on every regression capture (told, as the
 * report tells the user, to decode VXLAN on port 8472 where the finding's frames are inside it). A finding after the
 * handshake selects its whole connection, every one of the finding's frames among them.
 */
@Tag("slow")
class DisplayFilterTest {
    @Test
    void tsharkSelectsExactlyTheFindingsFrames() throws Exception {
        if (!onPath("tshark")) {
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail("tshark is not installed (scripts/test installs it)");
            }
            Assumptions.abort("tshark is not installed");
        }
        List<Path> captures = CaptureFilesOnDisk.under(CaptureFilesOnDisk.projectDir().resolve("captures"));
        List<String> wrong = new ArrayList<>();
        int findings = 0;
        for (Path p : captures) {
            Analysis a = new Analysis(Analysis.Options.defaults());
            a.read(List.of(new Capture(0, p.toString())), Reader.BUILTIN::open, line -> { });
            for (Diagnosis d : Report.of(a.finish(), Integer.MAX_VALUE, null).diagnoses()) {
                findings++;
                TreeSet<Long> expected = new TreeSet<>();
                d.frames().forEach(f -> expected.add(f.frame()));
                TreeSet<Long> selected = tshark(p, d.displayFilter(), d.decodeAs());
                // After the handshake the filter selects the whole connection, of which the finding keeps a few packets.
                boolean exact = !d.finding().pattern().connection();
                if (exact ? !expected.equals(selected) : !selected.containsAll(expected)) {
                    wrong.add(p + " " + d.finding().pattern().id() + ": pcapdiag " + expected + ", tshark -Y " + selected);
                }
            }
        }
        assertTrue(findings > 20, "only " + findings + " findings over " + captures.size() + " captures");
        assertEquals(List.of(), wrong);
    }

    /** The frames {@code tshark -Y filter} selects, told to decode what the finding says ({@code -d}) when it says so. */
    private static TreeSet<Long> tshark(Path capture, String filter, String decodeAs) throws Exception {
        List<String> command = new ArrayList<>(List.of("tshark", "-n", "-r", capture.toString()));
        if (decodeAs != null) {
            command.addAll(List.of("-d", decodeAs));
        }
        command.addAll(List.of("-Y", filter, "-T", "fields", "-e", "frame.number"));
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "tshark -Y '" + filter + "' on " + capture);
        TreeSet<Long> frames = new TreeSet<>();
        for (String line : out.lines().toList()) {
            if (!line.isBlank()) {
                frames.add(Long.parseLong(line.trim()));
            }
        }
        return frames;
    }

    static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
