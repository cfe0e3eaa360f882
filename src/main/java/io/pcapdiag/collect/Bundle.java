package io.pcapdiag.collect;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A bundle is a directory with a {@link Manifest} and the files it names, or that directory as a gzip-compressed tar
 * archive ({@code .tar.gz}, {@code .tgz}) holding it as its one top directory, as {@code tar czf} would.
 */
public final class Bundle {
    private Bundle() {
    }

    /** What {@code analyze} was given, read: the directory its files are in, and its manifest. */
    public record Opened(Path dir, Manifest manifest) {
        /** A file the manifest names, as a path. */
        public Path file(String name) {
            return dir.resolve(name);
        }
    }

    /**
     * Whether {@code arg} names a bundle: a directory holding a manifest, or a {@code .tar.gz}/{@code .tgz} file. Any
     * other directory is no bundle: analyze says it is no capture, as before bundles.
     */
    public static boolean is(String arg) {
        if (arg.equals("-")) {
            return false;
        }
        Path p = Path.of(arg);
        if (Files.isDirectory(p)) {
            return Files.isRegularFile(p.resolve(Manifest.FILE));
        }
        String name = p.getFileName() == null ? "" : p.getFileName().toString();
        return name.endsWith(".tar.gz") || name.endsWith(".tgz");
    }

    /**
     * Opens a bundle. An archive is unpacked beside itself, as {@code tar xzf} would unpack it there (so that the
     * report's capture names are files the user can open); when that directory is already there and holds the same
     * manifest it is read as it is.
     *
     * @param say one line each, for stderr
     * @throws IOException with a one-line message: not a bundle, an archive that cannot be unpacked, a manifest that
     *                     cannot be read, a directory in the way
     */
    public static Opened open(Path path, Consumer<String> say) throws IOException {
        if (Files.isDirectory(path)) {
            if (!Files.isRegularFile(path.resolve(Manifest.FILE))) {
                throw new IOException("a directory, and not a bundle: it has no " + Manifest.FILE);
            }
            return new Opened(path, Manifest.read(path));
        }
        if (!Files.isRegularFile(path)) {
            throw new IOException("no such file");
        }
        Path parent = path.toAbsolutePath().getParent();
        boolean beside = Files.isWritable(parent);
        Path work = beside ? Files.createTempDirectory(parent, ".pcapdiag-unpack-") : Files.createTempDirectory("pcapdiag-unpack-");
        boolean moved = false;
        try {
            String top;
            try (InputStream in = new GZIPInputStream(new BufferedInputStream(Files.newInputStream(path)), 64 * 1024)) {
                top = Tar.read(in, work);
            } catch (java.util.zip.ZipException e) {
                throw new IOException("not a gzip-compressed tar archive: " + e.getMessage());
            }
            Path unpacked = top == null ? work : work.resolve(top);
            if (!Files.isRegularFile(unpacked.resolve(Manifest.FILE))) {
                throw new IOException("an archive, and not a bundle: it holds no " + Manifest.FILE
                        + (top == null ? "" : " in " + top + "/"));
            }
            Manifest manifest = Manifest.read(unpacked);
            String name = top != null ? top : baseName(path);
            Path target = work.getParent().resolve(name);
            // Beside the archive, named as the user named the archive's directory; else (a directory it cannot write
            // in) in the temporary directory, where it stays for the evidence frames to be opened.
            Path dir = beside ? relative(path, target) : target;
            if (Files.exists(target)) {
                if (sameManifest(target, unpacked)) {
                    say.accept(path + ": read as unpacked before, in " + dir + "/");
                    return new Opened(dir, Manifest.read(target));
                }
                throw new IOException("it unpacks into " + dir + "/, which is there already and holds"
                        + " something else: move it away, or unpack the archive elsewhere (tar xzf) and analyze that directory");
            }
            Files.move(unpacked, target);
            moved = top == null;
            say.accept(path + ": unpacked into " + dir + "/");
            return new Opened(dir, manifest);
        } finally {
            if (!moved) {
                delete(work);
            }
        }
    }

    /** The target as the user would name it: beside the archive as the archive was named. */
    private static Path relative(Path archive, Path target) {
        Path parent = archive.getParent();
        return parent == null ? target.getFileName() : parent.resolve(target.getFileName());
    }

    private static boolean sameManifest(Path a, Path b) throws IOException {
        Path ma = a.resolve(Manifest.FILE);
        return Files.isRegularFile(ma) && Arrays.equals(Files.readAllBytes(ma), Files.readAllBytes(b.resolve(Manifest.FILE)));
    }

    /** {@code x} of {@code x.tar.gz} or {@code x.tgz}. */
    static String baseName(Path archive) {
        String n = archive.getFileName().toString();
        return n.endsWith(".tar.gz") ? n.substring(0, n.length() - 7) : n.endsWith(".tgz") ? n.substring(0, n.length() - 4) : n + ".d";
    }

    /**
     * Writes the bundle in {@code dir} as a gzip-compressed tar archive onto {@code out}, its files under the directory
     * {@code top}: the manifest first, so that a reader of the stream learns early what follows.
     */
    public static void pack(Path dir, String top, long mtimeSeconds, OutputStream out) throws IOException {
        List<String> files = new ArrayList<>();
        files.add(Manifest.FILE);
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals(Manifest.FILE)).sorted().forEach(files::add);
        }
        GZIPOutputStream gz = new GZIPOutputStream(out, 64 * 1024);
        Tar.write(dir, files, top, mtimeSeconds, gz);
        gz.finish();
        gz.flush();
    }

    /** Removes a directory tree (the bundle's working copy). */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
