package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's sample report is what its command prints today, byte for byte: it had kept two lines of a first run's
 * build (the launcher's "building" line and four raw ANSI resets) for two days without a test to say so.
 */
class ReadmeSampleTest {
    @Test
    void theSampleReportIsWhatItsCommandPrints() throws IOException {
        List<String> readme = Files.readAllLines(CliRun.projectDir().resolve("README.md"));
        int start = -1;
        for (int i = 0; i < readme.size() && start < 0; i++) {
            if (readme.get(i).startsWith("    scripts/pcapdiag analyze --cluster")) {
                start = i;
            }
        }
        assertTrue(start >= 0, "the README shows a command with --cluster");
        StringBuilder command = new StringBuilder();
        int i = start;
        for (; !readme.get(i).isBlank(); i++) {
            command.append(readme.get(i).replace("\\", " ")).append(' ');
        }
        List<String> args = new ArrayList<>(Arrays.asList(command.toString().trim().split("\\s+")));
        assertEquals("scripts/pcapdiag", args.remove(0));
        while (!readme.get(i).equals("```")) {
            i++;
        }
        StringBuilder sample = new StringBuilder();
        for (i++; !readme.get(i).equals("```"); i++) {
            sample.append(readme.get(i)).append('\n');
        }
        for (String a : args) {
            if (a.startsWith("captures/")) {
                assertTrue(Files.exists(Path.of(a)), a + " from the README's command, relative to " + Path.of("").toAbsolutePath());
            }
        }
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals("", r.err());
        assertEquals(ExitCodes.OK, r.code());
        assertEquals(sample.toString(), r.out());
    }
}
