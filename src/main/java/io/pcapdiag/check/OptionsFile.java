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
import java.util.List;
import java.util.Set;

/**
 * A directory's {@code pcapdiag.check}: the analyze options its captures need ({@code --lb-ip},
 * {@code --cluster}, {@code --node-facts}...), so a folder of captures says how it is analysed. Options are
 * separated by white space, {@code #} starts a comment line; a path is relative to the file's directory. Options
 * only: a capture here is refused, as are the options that change the report's form.
 */
public final class OptionsFile {
    public static final String NAME = "pcapdiag.check";
    /** Options whose value is a path. */
    private static final Set<String> PATHS = Set.of("--cluster", "--node-facts");
    /**
     * Options that change what the report is, not what the analysis knows: check decides those. Help and version
     * print no report at all: given here they ended the whole check with an internal error, the report it could not
     * read.
     */
    private static final Set<String> REFUSED = Set.of("-f", "--format", "--evidence", "--label", "--max-findings", "-h",
            "--help", "-V", "--version");
    /** analyze's options that take a value (OptionsFileTest holds this to picocli's model of analyze). */
    static final Set<String> VALUED = Set.of("-f", "--format", "--color", "--lb-ip", "--cluster", "--node-facts",
            "--node", "--fail-on", "--max-open", "--attempts", "--max-findings", "--label", "--evidence", "--reader");

    private OptionsFile() {
    }

    /** A bad options file: the message names the file and line. */
    public static final class Invalid extends Exception {
        Invalid(String message) {
            super(message);
        }
    }

    /** The options for the captures in {@code dir} (as the user named it), or none without a file. */
    public static List<String> read(Path dir) throws Invalid {
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
                String refused = REFUSED.contains(name) ? name : refusedInCluster(token);
                if (valueOf != null) {
                    out.add(PATHS.contains(valueOf) ? resolve(dir, token, at) : token);
                    valueOf = null;
                } else if (refused != null) {
                    throw new Invalid(at + refused + (refused.equals(name) ? "" : " (in " + token + ")")
                            + " is not an analysis option (check chooses the report's form)");
                } else if (PATHS.contains(name) && !name.equals(token)) {
                    out.add(name + "=" + resolve(dir, token.substring(name.length() + 1), at));
                } else if (!unknown && (token.charAt(0) != '-' || token.equals("-") || token.equals("--"))) {
                    // A capture (or the end of the options) here would be analysed with every capture of the
                    // directory, or, not found, said on a line only -v shows, the check passing.
                    throw new Invalid(at + token + " is not an option (check analyses the directory's captures one at a"
                            + " time; this file holds analyze's options for them)");
                } else {
                    out.add(token);
                    if (VALUED.contains(token)) {
                        valueOf = token;
                    } else if (!VALUED.contains(name) && !name.equals("-v") && !name.equals("--verbose")) {
                        unknown = true; // analyze says what it is: what follows may be its value
                    }
                }
            }
        }
        if (valueOf != null) {
            throw new Invalid(file + ": " + valueOf + (PATHS.contains(valueOf) ? " needs a path" : " needs a value")
                    + " after it");
        }
        return List.copyOf(out);
    }

    /**
     * The short option check refuses in a token that clusters analyze's short options as picocli reads them
     * ({@code -vh}; {@code -fjson} is {@code -f} with its value attached), or null: {@code -v} is passed on.
     */
    private static String refusedInCluster(String token) {
        if (token.length() < 2 || token.charAt(0) != '-' || token.charAt(1) == '-') {
            return null;
        }
        for (int i = 1; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == 'f' || c == 'h' || c == 'V') {
                return "-" + c;
            }
            if (c != 'v') {
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
