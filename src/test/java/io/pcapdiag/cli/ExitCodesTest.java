package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The exit codes are defined once (ExitCodes); every command's --help and the README say the same numbers. */
class ExitCodesTest {

    private static Map<Integer, String> defined() throws IllegalAccessException {
        Map<Integer, String> codes = new TreeMap<>();
        for (Field f : ExitCodes.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                codes.put(f.getInt(null), f.getName());
            }
        }
        return codes;
    }

    @Test
    void everyCommandListsOnlyDefinedCodesAndTheTopLevelListsThemAll() throws IllegalAccessException {
        Map<Integer, String> defined = defined();
        CommandLine cli = Main.commandLine();
        assertEquals(7, cli.getSubcommands().size(), "every subcommand is modelled");
        for (CommandLine c : cli.getSubcommands().values()) {
            if (c.getCommand() instanceof CommandLine.HelpCommand) {
                continue;
            }
            Command command = c.getCommand().getClass().getAnnotation(Command.class);
            TreeSet<Integer> listed = listed(command.exitCodeList());
            assertTrue(defined.keySet().containsAll(listed), c.getCommandName() + " lists " + listed + ", defined " + defined);
            assertTrue(listed.contains(ExitCodes.INTERNAL) && listed.contains(ExitCodes.USAGE)
                    && listed.contains(ExitCodes.OUTPUT), c.getCommandName() + " lists " + listed);
        }
        assertEquals(defined.keySet(), listed(Main.class.getAnnotation(Command.class).exitCodeList()));
    }

    private static TreeSet<Integer> listed(String[] list) {
        TreeSet<Integer> codes = new TreeSet<>();
        for (String entry : list) {
            codes.add(Integer.parseInt(entry.substring(0, entry.indexOf(':')).trim()));
        }
        return codes;
    }

    @Test
    void theReadmeListsEveryCode() throws IOException, IllegalAccessException {
        String readme = Files.readString(CliRun.projectDir().resolve("README.md"));
        Matcher m = Pattern.compile("- Exit codes:(.*?)\\n(?!  )", Pattern.DOTALL).matcher(readme);
        assertTrue(m.find(), "README has an 'Exit codes:' item");
        TreeSet<Integer> said = new TreeSet<>();
        Matcher n = Pattern.compile("(?:^|;)\\s*(\\d) ").matcher(m.group(1).replace('\n', ' '));
        while (n.find()) {
            said.add(Integer.parseInt(n.group(1)));
        }
        assertEquals(defined().keySet(), said, m.group(1));
    }

    /** A byte stream that fails like a full disk. */
    private static final class FullStream extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void flush() throws IOException {
            throw new IOException("No space left on device");
        }
    }

    /** analyze of a scenario's capture in {@code format} onto {@code out}, which fails: exit code 5 and one line. */
    private static void failsWithOneLine(String format, PrintWriter out) {
        StringWriter err = new StringWriter();
        String capture = CliRun.projectDir().resolve("captures/hairpin-no-brnf/any.pcap").toString();
        int code = Main.run(new String[] {"analyze", "--format", format, capture}, out, new PrintWriter(err));
        assertEquals(ExitCodes.OUTPUT, code, format + ": " + err);
        assertEquals("pcapdiag: " + ExitCodes.OUTPUT_FAILED + System.lineSeparator(), err.toString(), format);
    }

    /** A writer of an in-process caller's own, onto a full disk. */
    @Test
    void aReportThatCannotBeWrittenIsExitCodeFiveAndOneLine() {
        failsWithOneLine("text", new PrintWriter(new OutputStreamWriter(new FullStream(), StandardCharsets.UTF_8)));
    }

    /** Standard output as Main makes it, onto a full disk: the same in every format. */
    @ParameterizedTest
    @ValueSource(strings = {"text", "json", "jsonl"})
    void standardOutputThatCannotBeWrittenIsExitCodeFiveAndOneLine(String format) {
        failsWithOneLine(format, new PrintWriter(new FullStream(), false, StandardCharsets.UTF_8));
    }
}
