package io.pcapdiag.check;

import io.pcapdiag.report.IoReasons;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs the cases of {@code pcapdiag check}: each capture is analysed as {@code analyze --format json} with its
 * directory's options and compared with its baseline ({@code NAME.expected.json}). Captures are analysed in
 * parallel; results come out in path order, as each is known, so memory holds a few analyses at a time.
 */
public final class Checker {
    /** What a capture is called: what tcpdump, dumpcap and gzip write. */
    private static final Pattern CAPTURE = Pattern.compile(".*\\.(pcap|pcapng|cap)(\\.gz)?$");
    /** {@link #CAPTURE} in words. */
    public static final String CAPTURE_NAMES = ".pcap, .pcapng, .cap, optionally .gz";
    public static final String BASELINE_SUFFIX = ".expected.json";

    /** Runs {@code pcapdiag} with these arguments in-process. */
    @FunctionalInterface
    public interface Analyzer {
        Run run(List<String> args);
    }

    /** What a run printed. */
    public record Run(int code, String out, String err) {
    }

    public enum Status {
        PASSED, FAILED, CREATED, UPDATED;

        public boolean failed() {
            return this == FAILED;
        }
    }

    /**
     * One capture's result.
     *
     * @param capture  the capture as the user would name it (or the baseline, for a baseline without capture)
     * @param headline one line: why it failed, or what --update did
     * @param details  the diff lines and what the analysis said on stderr
     */
    public record Case(String capture, Status status, String headline, List<String> details, long nanos) {
        /** The headline and the details, a line each. */
        public String message() {
            return Stream.concat(Stream.of(headline), details.stream()).collect(Collectors.joining("\n"));
        }
    }

    /** A capture to check, or an orphan baseline (capture null). */
    record Item(Path capture, Path orphanBaseline) {
        String name() {
            return (capture != null ? capture : orphanBaseline).toString();
        }
    }

    private final Analyzer analyzer;
    private final OptionsFile optionsFile;
    private final boolean update;
    private final int jobs;

    public Checker(Analyzer analyzer, OptionsFile optionsFile, boolean update, int jobs) {
        this.analyzer = analyzer;
        this.optionsFile = optionsFile;
        this.update = update;
        this.jobs = Math.max(1, jobs);
    }

    /** Whether a file name is a capture. */
    public static boolean isCapture(String fileName) {
        return CAPTURE.matcher(fileName).matches();
    }

    /**
     * The cases under the arguments (directories are walked, sorted): every capture, and every baseline whose
     * capture is gone. An argument that does not exist or is a file but no capture is an IllegalArgumentException.
     */
    static List<Item> items(List<Path> args) {
        TreeMap<String, Item> out = new TreeMap<>();
        for (Path a : args) {
            if (Files.isDirectory(a)) {
                try (Stream<Path> s = Files.walk(a)) {
                    s.filter(p -> !Files.isDirectory(p)).forEach(p -> {
                        String f = p.getFileName().toString();
                        if (isCapture(f)) {
                            out.put(p.toString(), new Item(p, null));
                        } else if (f.endsWith(BASELINE_SUFFIX)) {
                            String c = f.substring(0, f.length() - BASELINE_SUFFIX.length());
                            if (isCapture(c) && !Files.exists(p.resolveSibling(c))) {
                                out.put(p.toString(), new Item(null, p));
                            }
                        }
                    });
                } catch (IOException | UncheckedIOException e) {
                    throw new IllegalArgumentException("cannot list " + a + ": " + e.getMessage());
                }
            } else if (Files.exists(a)) {
                if (!isCapture(a.getFileName().toString())) {
                    throw new IllegalArgumentException(a + " is not a capture (" + CAPTURE_NAMES + ") nor a directory");
                }
                out.put(a.toString(), new Item(a, null));
            } else {
                throw new IllegalArgumentException("no such file or directory: " + a);
            }
        }
        return List.copyOf(out.values());
    }

    /** Checks every item, handing each result to {@code sink} in path order; returns them all. */
    public List<Case> run(List<Path> args, Consumer<Case> sink) throws InterruptedException {
        List<Item> items = items(args);
        List<Case> all = new ArrayList<>(items.size());
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "pcapdiag-check");
            t.setDaemon(true);
            return t;
        });
        try {
            Deque<Future<Case>> window = new ArrayDeque<>();
            for (Item item : items) {
                if (window.size() >= 4 * jobs) {
                    emit(window.poll(), all, sink);
                }
                window.add(pool.submit(() -> alone(item)));
            }
            while (!window.isEmpty()) {
                emit(window.poll(), all, sink);
            }
        } finally {
            pool.shutdownNow();
        }
        return all;
    }

    private static void emit(Future<Case> f, List<Case> all, Consumer<Case> sink) throws InterruptedException {
        Case c;
        try {
            c = f.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        all.add(c);
        sink.accept(c);
    }

    /**
     * {@link #check}, a failure of which fails this capture alone: the other directories keep their results (a
     * snapshot whose reading overflowed the stack ended the whole check in exit 4).
     */
    private Case alone(Item item) {
        long t0 = System.nanoTime();
        try {
            return check(item);
        } catch (RuntimeException | StackOverflowError e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName()
                    : e.getClass().getSimpleName() + ": " + e.getMessage().lines().findFirst().orElse("");
            return new Case(item.name(), Status.FAILED, "not analysed: pcapdiag analyze failed (" + why + ")", List.of(),
                    System.nanoTime() - t0);
        }
    }

    Case check(Item item) {
        long t0 = System.nanoTime();
        if (item.capture() == null) {
            return new Case(item.name(), Status.FAILED, "baseline without its capture "
                    + item.orphanBaseline().getFileName().toString().replace(BASELINE_SUFFIX, "")
                    + " (restore the capture, or delete the baseline)", List.of(), System.nanoTime() - t0);
        }
        Path capture = item.capture();
        if (pipeOrDevice(capture)) {
            return new Case(item.name(), Status.FAILED, "not a regular file (a pipe or a device): check reads recorded"
                    + " captures", List.of(), System.nanoTime() - t0);
        }
        Path baseline = capture.resolveSibling(capture.getFileName() + BASELINE_SUFFIX);
        if (pipeOrDevice(baseline)) {
            return new Case(item.name(), Status.FAILED, baseline + ": not a regular file (a pipe or a device)", List.of(),
                    System.nanoTime() - t0);
        }
        Path dir = capture.getParent() == null ? Path.of("") : capture.getParent();
        List<String> options;
        try {
            options = optionsFile.read(dir);
        } catch (OptionsFile.Invalid e) {
            return new Case(item.name(), Status.FAILED, e.getMessage(), List.of(), System.nanoTime() - t0);
        }
        List<String> args = new ArrayList<>(List.of("analyze", "--format", "json"));
        args.addAll(options);
        args.add(capture.toString());
        Run run = analyzer.run(args);
        List<String> said = run.err().lines().filter(l -> !l.isBlank()).toList();
        if (run.code() != 0 && run.code() != 1) {
            return notAnalysed(item, run.code(), said, options.isEmpty() ? null : dir.resolve(OptionsFile.NAME), t0);
        }
        Baseline actual;
        try {
            actual = Baseline.parse(run.out());
        } catch (Baseline.Malformed e) {
            // A bug of analyze's, but this capture's: the others are still checked.
            return new Case(item.name(), Status.FAILED, "analyze wrote a report check cannot read: " + e.getMessage(),
                    said, System.nanoTime() - t0);
        }
        if (!Files.exists(baseline)) {
            if (update) {
                return written(item, baseline, run.out(), Status.CREATED, "baseline written: " + baseline.getFileName(), said, t0);
            }
            return new Case(item.name(), Status.FAILED, "no baseline " + baseline.getFileName()
                    + " (pcapdiag check --update writes it)", said, System.nanoTime() - t0);
        }
        Baseline expected;
        try {
            expected = Baseline.parse(Files.readString(baseline, StandardCharsets.UTF_8));
        } catch (Baseline.Malformed e) {
            if (update) {
                return written(item, baseline, run.out(), Status.UPDATED, "baseline rewritten: " + baseline.getFileName()
                        + " was malformed (" + e.getMessage() + ")", said, t0);
            }
            return new Case(item.name(), Status.FAILED, baseline + ": " + e.getMessage(), said, System.nanoTime() - t0);
        } catch (IOException | UncheckedIOException e) {
            return new Case(item.name(), Status.FAILED, baseline + ": cannot read: " + e.getMessage(), said,
                    System.nanoTime() - t0);
        }
        Difference d = Difference.between(expected, actual);
        if (d.none()) {
            return new Case(item.name(), Status.PASSED, "", said, System.nanoTime() - t0);
        }
        List<String> details = new ArrayList<>(d.lines());
        details.addAll(said);
        if (update) {
            return written(item, baseline, run.out(), Status.UPDATED, "baseline rewritten: " + d.counts(), details,
                    t0);
        }
        return new Case(item.name(), Status.FAILED, d.counts() + " (baseline " + baseline.getFileName() + ")", details,
                System.nanoTime() - t0);
    }

    /**
     * Whether {@code p} is there but neither a file nor a directory: a FIFO named like a capture or a baseline, whose
     * read would wait for a writer, and the check with it, for ever (a directory fails its read in a line).
     */
    private static boolean pipeOrDevice(Path p) {
        return Files.exists(p) && !Files.isRegularFile(p) && !Files.isDirectory(p);
    }

    /**
     * A capture analyze did not analyse: its first line, and what it said after that but its usage text. A usage
     * error (exit 2) comes from the options file when there is one (check's own arguments to analyze are a format and
     * a capture it found): the line names the file.
     */
    private static Case notAnalysed(Item item, int code, List<String> said, Path optionsFile, long t0) {
        int usage = 0;
        while (usage < said.size() && !said.get(usage).startsWith("Usage: ")) {
            usage++;
        }
        List<String> lines = said.subList(0, usage);
        String why = lines.isEmpty() ? "pcapdiag analyze exited with " + code : lines.get(0);
        if (code == 2 && optionsFile != null) {
            why = optionsFile + ": " + (why.startsWith("pcapdiag: ") ? why.substring("pcapdiag: ".length()) : why);
        }
        return new Case(item.name(), Status.FAILED, why, lines.size() > 1 ? lines.subList(1, lines.size()) : List.of(),
                System.nanoTime() - t0);
    }

    private static Case written(Item item, Path baseline, String document, Status status, String headline,
            List<String> details, long t0) {
        Path tmp = baseline.resolveSibling("." + baseline.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, document, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            try {
                Files.move(tmp, baseline, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, baseline, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            return new Case(item.name(), Status.FAILED, "cannot write " + baseline + ": " + notWritten(tmp, e), details,
                    System.nanoTime() - t0);
        }
        return new Case(item.name(), status, headline, details, System.nanoTime() - t0);
    }

    /**
     * Why a baseline was not written, in words ({@link IoReasons}): the JDK's exception names the temporary file it is
     * written to first, which the user never asked for. That file is removed, unless it was there before as something
     * else (a directory, or a link it would be written through), which the line then names: it stands in the way.
     */
    private static String notWritten(Path tmp, IOException e) {
        if (Files.isRegularFile(tmp, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.delete(tmp);
            } catch (IOException ignored) {
                // the line says why the baseline was not written; the file left behind is the one it was written to
            }
        } else if (Files.isSymbolicLink(tmp)) {
            return tmp.getFileName() + " is a symbolic link: refusing to write through it";
        } else if (Files.exists(tmp, LinkOption.NOFOLLOW_LINKS)) {
            return tmp.getFileName() + " is in the way (not a file): " + IoReasons.of(e);
        }
        return IoReasons.of(e);
    }
}
