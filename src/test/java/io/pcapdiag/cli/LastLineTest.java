package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's last line says what the run amounts to: a run that could read no capture says so (a missing file, a
 * directory, a text file), never "no findings"; a run whose capture had read errors says how many records were lost.
 */
class LastLineTest {
    private static String lastLine(CliRun r) {
        List<String> lines = r.out().lines().filter(l -> !l.isBlank()).toList();
        return lines.get(lines.size() - 1);
    }

    @Test
    void noReadableCaptureEndsBySayingSo(@TempDir Path dir) throws Exception {
        Path text = dir.resolve("notes.txt");
        Files.writeString(text, "hello, this is not a capture\n");
        for (String input : new String[] {dir.resolve("missing.pcap").toString(), dir.toString(), text.toString()}) {
            CliRun r = CliRun.of("analyze", input);
            assertEquals("no capture could be read (1 input: see the errors above): nothing was analysed", lastLine(r), input);
            assertEquals(ExitCodes.NO_INPUT, r.code(), input);
        }
    }

    @Test
    void readErrorsSayHowManyRecordsWereLost(@TempDir Path dir) throws Exception {
        byte[] whole = Files.readAllBytes(CliRun.projectDir().resolve("captures/closed-port/any.pcap"));
        // The last record cut off: one record lost, one read error.
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 10));
        CliRun r = CliRun.of("analyze", cut.toString());
        assertTrue(lastLine(r).endsWith("; 1 record lost to 1 read error"), lastLine(r));
        CliRun both = CliRun.of("analyze", cut.toString(), dir.resolve("missing.pcap").toString());
        assertTrue(lastLine(both).endsWith("; 1 of 2 inputs could not be read; 1 record lost to 1 read error"), lastLine(both));
    }
}
