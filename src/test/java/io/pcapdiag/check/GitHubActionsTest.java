package io.pcapdiag.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workflow commands and job summary GitHub Actions reads. */
class GitHubActionsTest {
    @TempDir
    Path dir;

    private static final Checker.Case FAILED = new Checker.Case("captures/a,b/x.pcap", Checker.Status.FAILED,
            "1 missing (baseline x.pcap.expected.json)", List.of("- connection-refused 10.0.0.1 -> 10.0.0.2:80, 100% of 1"), 1);
    private static final Checker.Case PASSED = new Checker.Case("captures/y.pcap", Checker.Status.PASSED, "", List.of(), 1);

    @Test
    void aFailureIsOneErrorCommandWithItsLinesEscaped() {
        StringWriter w = new StringWriter();
        PrintWriter out = new PrintWriter(w);
        GitHubActions.annotate(out, FAILED);
        GitHubActions.annotate(out, PASSED);
        out.flush();
        assertEquals("::error file=captures/a%2Cb/x.pcap,title=pcapdiag check::1 missing (baseline x.pcap.expected.json)"
                + "%0A- connection-refused 10.0.0.1 -> 10.0.0.2:80, 100%25 of 1" + System.lineSeparator(), w.toString());
    }

    @Test
    void onlyInAGitHubJob() {
        assertEquals(true, GitHubActions.active(Map.of("GITHUB_ACTIONS", "true")));
        assertEquals(false, GitHubActions.active(Map.of()));
    }

    @Test
    void theSummaryTableIsAppended() throws IOException {
        Path summary = dir.resolve("summary.md");
        Files.writeString(summary, "earlier step\n");
        GitHubActions.summary(summary, List.of(FAILED, PASSED), "1 passed, 1 failed");
        assertEquals("earlier step\n### pcapdiag check: 1 passed, 1 failed\n\n| capture | result | difference |\n|---|---|---|\n"
                + "| `captures/a,b/x.pcap` | failed | 1 missing (baseline x.pcap.expected.json)<br>- connection-refused 10.0.0.1"
                + " -&gt; 10.0.0.2:80, 100% of 1 |\n\n", Files.readString(summary));
    }
}
