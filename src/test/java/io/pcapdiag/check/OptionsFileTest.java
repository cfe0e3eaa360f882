package io.pcapdiag.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The options file reads analyze's options as its model describes them, whatever their names. */
class OptionsFileTest {
    private static final OptionsFile FILE = new OptionsFile(List.of(
            new OptionsFile.Option(List.of("-q", "--quiet"), false, false, false),
            new OptionsFile.Option(List.of("--rules"), true, true, false),
            new OptionsFile.Option(List.of("--zone"), true, false, false),
            new OptionsFile.Option(List.of("-f", "--format"), true, false, false),
            new OptionsFile.Option(List.of("-h", "--help"), false, false, true),
            new OptionsFile.Option(List.of("-r"), true, false, false),
            new OptionsFile.Option(List.of("--service"), true, false, false),
            new OptionsFile.Option(List.of("--host"), true, false, false)));

    @TempDir
    Path dir;

    @Test
    void valuesAndPathsAreTheModelsOwn() throws Exception {
        Files.writeString(dir.resolve(OptionsFile.NAME), "# context\n-q --zone a.pcap\n--rules r.json --rules=s.json\n");
        assertEquals(List.of("-q", "--zone", "a.pcap", "--rules", dir.resolve("r.json").toString(),
                "--rules=" + dir.resolve("s.json")), FILE.read(dir));
    }

    @Test
    void theReportsFormAndHelpAreRefusedByEveryName() throws Exception {
        for (String[] c : new String[][] {{"--format json", "--format"}, {"-f json", "-f"}, {"-qfjson", "-f (in -qfjson)"},
            {"-qh", "-h (in -qh)"}, {"--help", "--help"}, {"-r x.pcap", "-r"},
            {"--service default/web", "--service"}, {"--host 10.0.0.0/8", "--host"}}) {
            Files.writeString(dir.resolve(OptionsFile.NAME), c[0] + "\n");
            OptionsFile.Invalid e = assertThrows(OptionsFile.Invalid.class, () -> FILE.read(dir), c[0]);
            assertTrue(e.getMessage().endsWith(": line 1: " + c[1] + " is not an analysis option (check chooses the"
                    + " report's form)"), e.getMessage());
        }
    }
}
