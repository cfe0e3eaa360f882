package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code --version} prints the pom's version and the commit the build wrote (src/dist/build-info at
 * generate-resources): in this checkout, git's description of it.
 */
class VersionTest {
    @Test
    void printsThePomsVersionAndTheCommit() throws Exception {
        CliRun r = CliRun.of("--version");
        assertEquals(0, r.code(), r.err());
        Matcher m = Pattern.compile("pcapdiag (\\S+) \\(commit (\\S+)\\)\n").matcher(r.out());
        assertTrue(m.matches(), r.out());
        String pom = Files.readString(CliRun.projectDir().resolve("pom.xml"));
        Matcher v = Pattern.compile("<artifactId>pcapdiag</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
        assertTrue(v.find());
        assertEquals(v.group(1), m.group(1));
        // A checkout's build names its commit: a hash of 12 digits at least, after a tag when there is one.
        if (Files.exists(CliRun.projectDir().resolve(".git"))) {
            assertTrue(m.group(2).matches("(.+-g)?[0-9a-f]{12,}(-dirty)?"), m.group(2));
        }
    }
}
