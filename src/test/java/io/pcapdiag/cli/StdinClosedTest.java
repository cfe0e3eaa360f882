package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code analyze - <&-}: with descriptor 0 closed, the JVM's first opened file takes it. It used to be read as the
 * capture ("unknown file format (magic 0xdadafeca)"; a segfault elsewhere): it is "standard input is closed", exit 3.
 */
class StdinClosedTest {
    @Test
    void closedStandardInputIsSaidAsSuch() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder("bash", "-c", "exec \"$0\" -cp \"$1\" " + Main.class.getName() + " analyze - <&-",
                java, System.getProperty("java.class.path")).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(ExitCodes.NO_INPUT, p.exitValue(), err);
        assertTrue(err.contains("pcapdiag: -: standard input is closed"), err);
        assertTrue(out.contains("-: not analysed"), out);
    }
}
