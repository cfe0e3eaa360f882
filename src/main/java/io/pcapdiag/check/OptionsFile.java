package io.pcapdiag.check;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A directory's {@code pcapdiag.check}: the analyze options its captures need ({@code --lb-ip},
 * {@code --cluster}, {@code --node-facts}...), so a folder of captures says how it is analysed. Options are
 * separated by white space, {@code #} starts a comment line; a path is relative to the file's directory. Options
 * only: a capture here is refused, as are the options that change the report's form. What analyze's options are
 * (their names, which take a value, which a path) comes from its command-line model ({@link Option}).
 */
public final class OptionsFile {
    public static final String NAME = "pcapdiag.check";
    /**
     * Options that change what the report is or what it reads, not what the analysis knows: check decides those (the
     * captures are the directory's; every finding is compared with the baseline, none filtered out). Help and version
     * ({@link Option#printsNoReport}) are refused too: given here they ended the whole check with an internal error,
     * the report it could not read.
     */
    private static final Set<String> REPORT_FORM = Set.of("--format", "--evidence", "--label", "--max-findings", "-r",
            "--service", "--pod", "--host");

    /**
     * One of analyze's options as its model describes it: every name it goes by, whether it takes a value and whether
     * that value is a path, and whether it prints help or a version instead of a report.
     */
    public record Option(List<String> names, boolean takesValue, boolean takesPath, boolean printsNoReport) {
    }

    private final Set<String> valued = new HashSet<>();
    private final Set<String> paths = new HashSet<>();
    private final Set<String> flags = new HashSet<>();
    private final Set<String> refused = new HashSet<>();

    /** A reader of options files for a command with these options. */
    public OptionsFile(List<Option> analyze) {
        for (Option o : analyze) {
            if (o.printsNoReport() || o.names().stream().anyMatch(REPORT_FORM::contains)) {
                refused.addAll(o.names());
            } else if (o.takesValue()) {
                valued.addAll(o.names());
                if (o.takesPath()) {
                    paths.addAll(o.names());
                }
            } else {
                flags.addAll(o.names());
            }
        }
    }

    /** A bad options file: the message names the file and line. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    /** The options for the captures in {@code dir} (as the user named it), or none without a file. */
    public List<String> read(Path dir) throws Invalid {
        Path file = dir.resolve(NAME);
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = text(file, Files.readAllBytes(file)).lines().toList();
        } catch (IOException e) {
            throw new Invalid(file + ": cannot read: " + e.getMessage());
        }
        List<String> out = new ArrayList<>();
        String valueOf = null;
        boolean unknown = false;
        for (int n = 0; n < lines.size(); n++) {
            String t = lines.get(n).strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            String at = file + ": line " + (n + 1) + ": ";
            for (String token : t.split("\\s+")) {
                String name = token.contains("=") && token.startsWith("-") ? token.substring(0, token.indexOf('=')) : token;
                String refusedName = refused.contains(name) ? name : refusedInCluster(token);
                if (valueOf != null) {
                    out.add(paths.contains(valueOf) ? resolve(dir, token, at) : token);
                    valueOf = null;
                } else if (refusedName != null) {
                    throw new Invalid(at + refusedName + (refusedName.equals(name) ? "" : " (in " + token + ")")
                            + " is not an analysis option (check chooses the report's form)");
                } else if (paths.contains(name) && !name.equals(token)) {
                    out.add(name + "=" + resolve(dir, token.substring(name.length() + 1), at));
                } else if (!unknown && (token.charAt(0) != '-' || token.equals("-") || token.equals("--"))) {
                    // A capture (or the end of the options) here would be analysed with every capture of the
                    // directory, or, not found, said on a line only -v shows, the check passing.
                    throw new Invalid(at + token + " is not an option (check analyses the directory's captures one at a"
                            + " time; this file holds analyze's options for them)");
                } else {
                    out.add(token);
                    if (valued.contains(token)) {
                        valueOf = token;
                    } else if (!valued.contains(name) && !flags.contains(name)) {
                        unknown = true; // analyze says what it is: what follows may be its value
                    }
                }
            }
        }
        if (valueOf != null) {
            throw new Invalid(file + ": " + valueOf + (paths.contains(valueOf) ? " needs a path" : " needs a value")
                    + " after it");
        }
        return List.copyOf(out);
    }

    /**
     * The short option check refuses in a token that clusters analyze's short options as picocli reads them
     * ({@code -vh}; {@code -fjson} is {@code -f} with its value attached), or null: flags ({@code -v}) are passed on.
     */
    private String refusedInCluster(String token) {
        if (token.length() < 2 || token.charAt(0) != '-' || token.charAt(1) == '-') {
            return null;
        }
        for (int i = 1; i < token.length(); i++) {
            String option = "-" + token.charAt(i);
            if (refused.contains(option)) {
                return option;
            }
            if (!flags.contains(option)) {
                return null;
            }
        }
        return null;
    }

    private static String resolve(Path dir, String path, String at) throws Invalid {
        try {
            return dir.resolve(path).normalize().toString();
        } catch (InvalidPathException e) {
            throw new Invalid(at + "not a path: " + e.getReason());
        }
    }

    /** The file as UTF-8 text, or a line with the byte offset where it is not. */
    private static String text(Path file, byte[] bytes) throws Invalid {
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = d.decode(in, out, true);
        if (r.isError()) {
            throw new Invalid(file + ": not UTF-8 text at byte " + in.position());
        }
        d.flush(out);
        return out.flip().toString();
    }
}
