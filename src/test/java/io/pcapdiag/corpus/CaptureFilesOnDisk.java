package io.pcapdiag.corpus;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds capture files under a directory by their magic number, as the corpus sweep and others need. */
public final class CaptureFilesOnDisk {
    private CaptureFilesOnDisk() {
    }

    /** The project directory (Surefire runs tests there; the property makes it explicit). */
    public static Path projectDir() {
        return Path.of(System.getProperty("pcapdiag.project.dir", ".")).toAbsolutePath().normalize();
    }

    /** The third-party corpus beside the project (../shared/corpus). */
    public static Path corpusDir() {
        return projectDir().resolve("../shared/corpus").normalize();
    }

    /** Files under {@code dir} that start with a pcap, pcapng or gzip magic number, sorted; none if it is absent. */
    public static List<Path> under(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
                byte[] head = new byte[4];
                try (InputStream in = Files.newInputStream(p)) {
                    if (in.readNBytes(head, 0, 4) == 4 && isCaptureMagic(head)) {
                        out.add(p);
                    }
                }
            }
        }
        return out;
    }

    static boolean isCaptureMagic(byte[] b) {
        int be = ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
        int le = Integer.reverseBytes(be);
        for (int m : new int[] {0xa1b2c3d4, 0xa1b23c4d, 0xa1b2cd34}) {
            if (be == m || le == m) {
                return true;
            }
        }
        return be == 0x0a0d0d0a || (be >>> 16) == 0x1f8b;
    }
}
