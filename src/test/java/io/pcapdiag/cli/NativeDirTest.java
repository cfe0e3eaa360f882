package io.pcapdiag.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.pcapdiag.capture.Libpcap;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where JNA's native stub goes when pcap4j loads libpcap: not root's home cache (JNA's default), but a 0700 directory
 * of pcapdiag's own under java.io.tmpdir; and with jna.boot.library.path (the image) nowhere at all, so that a
 * read-only root filesystem without a writable /tmp works.
 */
class NativeDirTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private Run run(Map<String, String> env, String... jvmArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(List.of(jvmArgs));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "analyze", "--reader",
                "pcap4j", CliRun.projectDir().resolve("captures/closed-port/any.pcap").toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("XDG_CACHE_HOME");
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        if (err.contains(Libpcap.MISSING)) {
            if (CliRun.inCi()) {
                fail("libpcap must be installed in CI (scripts/test installs it)");
            }
            Assumptions.abort("libpcap is not installed");
        }
        return new Run(p.exitValue(), out, err);
    }

    @Test
    void nativeStubGoesToAPrivateDirectoryNotTheHomeCache() throws Exception {
        Path home = Files.createDirectory(dir.resolve("home"));
        Path tmp = Files.createDirectory(dir.resolve("tmp"));
        Run r = run(Map.of("HOME", home.toString()), "-Duser.home=" + home, "-Djava.io.tmpdir=" + tmp);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("1 finding"), r.out());
        int uid = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        Path jna = tmp.resolve("pcapdiag-jna-" + uid);
        assertTrue(Files.isDirectory(jna), "made " + jna);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(jna)));
        assertFalse(Files.exists(home.resolve(".cache")), "nothing in the home directory");
    }

    @Test
    void withTheStubOnTheBootPathNothingIsWritten() throws Exception {
        String jar = List.of(System.getProperty("java.class.path").split(File.pathSeparator)).stream()
                .filter(e -> e.matches(".*/jna-[0-9.]+\\.jar")).findFirst().orElseThrow();
        Path lib = Files.createDirectory(dir.resolve("native"));
        try (ZipFile z = new ZipFile(jar); InputStream in = z.getInputStream(z.getEntry("com/sun/jna/linux-x86-64/libjnidispatch.so"))) {
            Files.copy(in, lib.resolve("libjnidispatch.so"));
        }
        Path home = Files.createDirectory(dir.resolve("home2"));
        home.toFile().setWritable(false);
        Run r = run(Map.of("HOME", home.toString()), "-Duser.home=" + home, "-Djava.io.tmpdir=/nonexistent",
                "-Djna.boot.library.path=" + lib, "-Djna.nounpack=true");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("1 finding"), r.out());
        assertFalse(Files.exists(home.resolve(".cache")));
    }
}
