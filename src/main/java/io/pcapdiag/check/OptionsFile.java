package io.pcapdiag.check;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A directory's {@code pcapdiag.check}: the analyze options its captures need ({@code --lb-ip},
 * {@code --cluster}, {@code --node-facts}...), so a folder of captures says how it is analysed. Options are
 * separated by white space, {@code #} starts a comment line; a path is relative to the file's directory.
 */
public final class OptionsFile {
    public static final String NAME = "pcapdiag.check";
    /** Options whose value is a path. */
    private static final Set<String> PATHS = Set.of("--cluster", "--node-facts");
    /** Options that change what the report is, not what the analysis knows: check decides those. */
    private static final Set<String> REFUSED = Set.of("-f", "--format", "--evidence", "--label", "--max-findings");

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
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new Invalid(file + ": cannot read: " + e.getMessage());
        }
        List<String> out = new ArrayList<>();
        boolean pathNext = false;
        for (int n = 0; n < lines.size(); n++) {
            String t = lines.get(n).strip();
            if (t.isEmpty() || t.startsWith("#")) {
                continue;
            }
            for (String token : t.split("\\s+")) {
                String name = token.contains("=") && token.startsWith("-") ? token.substring(0, token.indexOf('=')) : token;
                if (pathNext) {
                    out.add(dir.resolve(token).normalize().toString());
                    pathNext = false;
                } else if (REFUSED.contains(name)) {
                    throw new Invalid(file + ": line " + (n + 1) + ": " + name + " is not an analysis option (check"
                            + " chooses the report's form)");
                } else if (PATHS.contains(name) && !name.equals(token)) {
                    out.add(name + "=" + dir.resolve(token.substring(name.length() + 1)).normalize());
                } else {
                    out.add(token);
                    pathNext = PATHS.contains(token);
                }
            }
        }
        if (pathNext) {
            throw new Invalid(file + ": " + out.get(out.size() - 1) + " needs a path after it");
        }
        return List.copyOf(out);
    }
}
