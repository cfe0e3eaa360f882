package io.pcapdiag.node;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The node's own tools ({@code ip}, {@code iptables-save}, {@code nft}): found on PATH, run with a time limit. */
final class Commands {
    private static final long TIMEOUT_SECONDS = 10;

    private Commands() {
    }

    /** The first executable {@code name} on {@code path} (a PATH value), or unknown with the reason. */
    static OrUnknown<Path> onPath(String name, String path, String what) {
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (dir.isEmpty()) {
                    continue;
                }
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return OrUnknown.known(p);
                }
            }
        }
        return OrUnknown.unknown("no " + name + (what == null ? "" : " (" + what + ")") + " on PATH");
    }

    /** Runs {@code exe args...}: what it printed on standard output, or unknown with the reason it failed. */
    static OrUnknown<byte[]> run(Path exe, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(exe.toString());
        argv.addAll(List.of(args));
        String cmd = String.join(" ", argv);
        try {
            Process p = new ProcessBuilder(argv).start();
            p.getOutputStream().close();
            // Both pipes drained on their own threads, so that neither can fill up and the wait can time out
            // (no temporary files: a container's root file system may be read-only).
            Drain out = new Drain(p.getInputStream());
            Drain err = new Drain(p.getErrorStream());
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return OrUnknown.unknown(cmd + " did not finish in " + TIMEOUT_SECONDS + " s");
            }
            out.join();
            err.join();
            if (p.exitValue() != 0) {
                return OrUnknown.unknown(cmd + " failed (exit " + p.exitValue() + "): "
                        + Reasons.oneLine(new String(err.bytes(), StandardCharsets.UTF_8)));
            }
            return OrUnknown.known(out.bytes());
        } catch (IOException e) {
            return OrUnknown.unknown("cannot run " + cmd + ": " + Reasons.oneLine(String.valueOf(e.getMessage())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return OrUnknown.unknown(cmd + " was interrupted");
        }
    }

    /** Reads a stream to its end on a daemon thread. */
    private static final class Drain extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

        Drain(InputStream in) {
            super("pcapdiag-command-drain");
            this.in = in;
            setDaemon(true);
            start();
        }

        @Override
        public void run() {
            try (in) {
                in.transferTo(buf);
            } catch (IOException e) {
                // The process was killed: what was read is what there is.
            }
        }

        synchronized byte[] bytes() {
            return buf.toByteArray();
        }
    }
}
