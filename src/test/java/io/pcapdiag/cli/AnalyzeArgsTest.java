package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@link AnalyzeArgs} against picocli: every command line it takes, picocli takes too and sets every option field to the
 * same value (defaults included); and it takes the command lines users type.
 */
class AnalyzeArgsTest {
    /** Every field picocli sets on the command and its mixins, by name: what the two readers must agree on. */
    private static String fields(AnalyzeCommand c) throws IllegalAccessException {
        TreeMap<String, String> out = new TreeMap<>();
        for (Object o : new Object[] {c, c.common, c.analysis}) {
            for (Field f : o.getClass().getDeclaredFields()) {
                if (f.isAnnotationPresent(CommandLine.Option.class) || f.isAnnotationPresent(CommandLine.Parameters.class)) {
                    f.setAccessible(true);
                    out.put(o.getClass().getSimpleName() + "." + f.getName(), String.valueOf(f.get(o)));
                }
            }
        }
        return out.toString();
    }

    private static AnalyzeCommand picocli(CommandLine cl, String[] args) {
        CommandLine.ParseResult parsed = cl.parseArgs(args);
        return (AnalyzeCommand) parsed.subcommand().commandSpec().userObject();
    }

    private static void agree(String[] args) throws IllegalAccessException {
        agree(args, null);
    }

    /**
     * Parsed by picocli with {@code reused} (one that has parsed lines before: picocli sets every option back to its
     * initial value first), or with a new one as a run does when null: building picocli's model is most of the time.
     */
    private static void agree(String[] args, CommandLine reused) throws IllegalAccessException {
        AnalyzeCommand fast = AnalyzeArgs.parse(args);
        if (fast == null) {
            return;
        }
        AnalyzeCommand slow;
        try {
            slow = picocli(reused != null ? reused : Main.commandLine(args), args);
        } catch (CommandLine.ParameterException e) {
            fail("AnalyzeArgs took " + List.of(args) + ", picocli refused it: " + e.getMessage());
            return;
        }
        assertEquals(fields(slow), fields(fast), "fields after " + List.of(args));
    }

    @Test
    void takesWhatUsersTypeAsPicocliReadsIt() throws IllegalAccessException {
        String[][] typed = {
            {"analyze", "capture.pcap"},
            {"analyze", "--format", "json", "a.pcap", "b.pcapng.gz"},
            {"analyze", "-f", "jsonl", "-"},
            {"analyze", "--format=json", "--max-findings", "5000", "node.pcap"},
            {"analyze", "--cluster", "cluster.json", "--node-facts", "node-facts.json", "any.pcap"},
            {"analyze", "--label", "a.pcap=node-a/eth0", "--label=b.pcap=node-b", "a.pcap", "b.pcap"},
            {"analyze", "--lb-ip", "203.0.113.10,2001:db8::10", "--lb-ip=198.51.100.7", "--fail-on", "error", "x.pcap"},
            {"analyze", "-v", "--color", "never", "--max-open", "1000000", "--attempts", "20", "--evidence", "out", "x.pcap"},
            {"analyze", "--reader", "pcap4j", "--node", "node-a", "x.pcap"},
        };
        for (String[] args : typed) {
            assertNotNull(AnalyzeArgs.parse(args), "taken without picocli: " + List.of(args));
            agree(args);
        }
    }

    @Test
    void leavesToPicocliWhatItDoesNotTakeAsItIs() {
        String[][] others = {
            {"analyze"}, {"analyze", "--help"}, {"analyze", "-h"}, {"analyze", "-V"}, {"analyze", "@args.txt"},
            {"analyze", "--", "x.pcap"}, {"analyze", "-fjson", "x.pcap"}, {"analyze", "-vf", "json", "x.pcap"},
            {"analyze", "--format", "JSON", "x.pcap"}, {"analyze", "--format", "json", "--format", "text", "x.pcap"},
            {"analyze", "--max-open", "+5", "x.pcap"}, {"analyze", "--max-open", "-1", "x.pcap"},
            {"analyze", "--node", "-x", "x.pcap"}, {"analyze", "--frobnicate", "x.pcap"}, {"analyze", "--format"},
            {"analyze", "--format="}, {"analyze", "--verbose=true", "x.pcap"}, {"analyze", "-v", "-v", "x.pcap"},
            {"analyze", "--lb-ip", "a,,b", "x.pcap"}, {"analyze", "--cluster", "a\0b", "x.pcap"}, {"live", "-i", "any"},
            {"help", "analyze"}, {"--version"},
        };
        for (String[] args : others) {
            assertNull(AnalyzeArgs.parse(args), List.of(args).toString());
        }
    }

    /** Command lines drawn from a vocabulary of forms and values, good and bad: wherever AnalyzeArgs takes one, picocli agrees. */
    @Test
    void agreesWithPicocliOnGeneratedCommandLines() throws IllegalAccessException {
        String[] names = {"--format", "-f", "--color", "--lb-ip", "--cluster", "--node-facts", "--node", "--fail-on",
            "--max-open", "--attempts", "--max-findings", "--label", "--evidence", "--reader"};
        String[] values = {"text", "json", "jsonl", "JSON", "auto", "always", "never", "10.0.0.1", "10.0.0.1,fd00::1", "a,,b",
            "c.json", "dir/", "node-a", "warning", "error", "none", "1", "1000", "0", "+5", "0x10", "99999999999", "123456789",
            "a.pcap=node-a", "b.pcap=node-b/eth0", "builtin", "pcap4j", "", "-x", "x.pcap"};
        String[] loose = {"-v", "--verbose", "--verbose=true", "-h", "--", "@args.txt", "--unknown", "-x", "a.pcap", "b.pcap",
            "-", "c=d.pcap", "-fjson", "-f=json"};
        SplittableRandom random = new SplittableRandom(42);
        CommandLine reused = Main.commandLine(new String[] {"analyze"});
        int taken = 0;
        for (int n = 0; n < 20_000; n++) {
            List<String> args = new ArrayList<>();
            args.add("analyze");
            int parts = random.nextInt(0, 7);
            for (int i = 0; i < parts; i++) {
                switch (random.nextInt(3)) {
                    case 0 -> {
                        args.add(names[random.nextInt(names.length)]);
                        args.add(values[random.nextInt(values.length)]);
                    }
                    case 1 -> args.add(names[random.nextInt(names.length)] + "=" + values[random.nextInt(values.length)]);
                    default -> args.add(loose[random.nextInt(loose.length)]);
                }
            }
            if (random.nextInt(4) > 0) {
                args.add("x.pcap");
            }
            String[] a = args.toArray(String[]::new);
            if (AnalyzeArgs.parse(a) != null) {
                taken++;
            }
            agree(a, n % 10 == 0 ? null : reused); // a new model for one line in ten
        }
        // Not vacuous: a good share of the lines is taken and so compared.
        assertTrue(taken > 2_000, taken + " of 20000 command lines taken without picocli");
    }
}
