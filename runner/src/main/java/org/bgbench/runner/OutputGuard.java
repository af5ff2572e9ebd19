package org.bgbench.runner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.bgbench.model.InvalidParameterException;

/**
 * The one rule for the paths BG writes (every command's {@code --out}, the experiments of a rating, the deck's jobs,
 * which are {@code bg} commands): BG creates its outputs, replaces or moves aside only what it recognises by content
 * as its own earlier output, and writes nothing inside the operating system's own trees ({@link #SYSTEM_TREES}). A
 * path that breaks the rule is refused as bad input before anything runs.
 */
public final class OutputGuard {
    /**
     * The Filesystem Hierarchy Standard's trees of the system's programs, configuration, variable data and kernel
     * interfaces, and the root directory itself; {@code /tmp} and {@code /var/tmp} are for everyone's files. Checked
     * on the real path, so a symbolic link into them does not get around it.
     */
    public static final List<Path> SYSTEM_TREES = List.of(
                    "/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin",
                    "/sys", "/usr", "/var")
            .stream()
            .map(Path::of)
            .toList();

    private static final Path SHARED_TMP = Path.of("/var/tmp");
    /** The start of each JSON document BG writes: its format ("bg-…/N") or, for elasticity, its kind. */
    private static final Pattern BG_JSON =
            Pattern.compile("\\A\\s*\\{\\s*\"(?:format|kind)\"\\s*:\\s*\"(?:bg-[a-z-]+/\\d+|elasticity)\"");

    private static final String HLOG_START = "#BG per-second latency histograms";
    private static final Set<String> RUN_DIR_ENTRIES =
            Set.of("logs", "graph.json", "expected.state", "expected.state.tmp");
    private static final Pattern LOG_ENTRY = Pattern.compile("thread-\\d+\\.bglog|manifest\\.txt|\\.space-reserve");

    private OutputGuard() {}

    /**
     * A file BG is to write, checked before anything runs: absent (in a writable directory outside the system trees),
     * or a regular file that is BG's own JSON output.
     *
     * @throws InvalidParameterException naming {@code option} and why, otherwise
     */
    public static void file(String option, Path file) {
        place(option, file);
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new InvalidParameterException(
                    option, file + " is a directory; give a file such as " + file.resolve("run.json"));
        }
        String wrong = notBgJson(file);
        if (wrong != null) {
            throw refused(option, file, wrong);
        }
    }

    /**
     * A run's result {@code X.json} with its interval log {@code X.hlog} and directory {@code X/}: each absent or
     * recognised as an earlier run's, so {@link RunArtifacts#keepEarlier} may move them aside.
     */
    public static void runResult(String option, Path result) {
        file(option, result);
        Path hlog = RunArtifacts.hlogFor(result);
        String wrong = notOwn(hlog, OutputGuard::isHlog, "a BG interval log");
        if (wrong != null) {
            throw refused(option, result, "has beside it " + hlog.getFileName() + ", which " + wrong);
        }
        Path dir = RunArtifacts.forResult(result).dir();
        wrong = notRunDirectory(dir);
        if (wrong != null) {
            throw refused(option, result, "has beside it the directory " + dir.getFileName() + ", which " + wrong);
        }
    }

    /** A directory BG is to create or write into: absent, or a directory (not a link), outside the system trees. */
    public static void directory(String option, Path dir) {
        place(option, dir);
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new InvalidParameterException(option, dir + " " + kind(dir) + "; give a directory");
        }
    }

    /** Whether {@code file} is a regular file (not a link) holding a JSON document BG wrote. */
    public static boolean isBgJson(Path file) {
        return startsWith(file, BG_JSON, null);
    }

    private static boolean isHlog(Path file) {
        return startsWith(file, null, HLOG_START);
    }

    /** Outside the system trees, and the nearest existing ancestor is a directory BG may write (in that order). */
    private static void place(String option, Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path ancestor = abs.getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor == null) {
            throw new InvalidParameterException(option, "cannot write " + p + ": no such place");
        }
        Path real;
        try {
            real = ancestor.toRealPath().resolve(ancestor.relativize(abs));
        } catch (IOException e) {
            throw new InvalidParameterException(option, "cannot write " + p + ": " + e.getMessage());
        }
        Path tree = systemTree(real);
        if (tree != null) {
            throw new InvalidParameterException(
                    option,
                    p + (real.equals(abs) ? "" : " (" + real + ")") + " is in "
                            + (tree.getNameCount() == 0 ? "the root directory" : tree + ", a system directory")
                            + "; BG writes nothing in /, /etc, /usr, /var and the other system trees (docs/running.md, \"Where BG writes\"): "
                            + "give a path such as runs/" + p.getFileName());
        }
        if (!Files.isDirectory(ancestor) || !Files.isWritable(ancestor)) {
            throw new InvalidParameterException(
                    option, "cannot write " + p + ": " + ancestor + " is not a writable directory");
        }
    }

    /** The system tree {@code real} is in, or null; the root itself counts, as a place to write files into. */
    static Path systemTree(Path real) {
        if (real.getNameCount() <= 1) {
            return real.getRoot(); // "/" or a file directly in it
        }
        if (real.startsWith(SHARED_TMP)) {
            return null;
        }
        return SYSTEM_TREES.stream().filter(real::startsWith).findFirst().orElse(null);
    }

    /** Why an existing {@code file} is not BG's JSON output, or null when it is or is absent. */
    private static String notBgJson(Path file) {
        return notOwn(file, OutputGuard::isBgJson, "a BG result");
    }

    private static String notOwn(Path p, Predicate<Path> own, String what) {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
            return kind(p);
        }
        return own.test(p) ? null : "exists and is not " + what + " (BG recognises its own by their content)";
    }

    /** Why an existing {@code dir} is not an earlier run's directory, or null when it is or is absent. */
    private static String notRunDirectory(Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return kind(dir);
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            boolean any = false;
            for (Path e : entries) {
                any = true;
                String name = e.getFileName().toString();
                if (!RUN_DIR_ENTRIES.contains(name) || Files.isSymbolicLink(e)) {
                    return "holds " + name + ", which a run does not write";
                }
                if (name.equals("logs")) {
                    String wrong = notLogs(e);
                    if (wrong != null) {
                        return wrong;
                    }
                }
            }
            return any ? null : "is an empty directory, which BG does not recognise as a run's";
        } catch (IOException e) {
            return "cannot be read: " + e.getMessage();
        }
    }

    private static String notLogs(Path logs) throws IOException {
        if (!Files.isDirectory(logs, LinkOption.NOFOLLOW_LINKS)) {
            return "holds logs, which is not a directory";
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(logs)) {
            for (Path e : entries) {
                if (!LOG_ENTRY.matcher(e.getFileName().toString()).matches()
                        || !Files.isRegularFile(e, LinkOption.NOFOLLOW_LINKS)) {
                    return "holds logs/" + e.getFileName() + ", which a run does not write";
                }
            }
        }
        return null;
    }

    /** What an existing path that is not a regular file is, as a refusal says it. */
    private static String kind(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isSymbolicLink()) {
                return "is a symbolic link (to " + Files.readSymbolicLink(p) + "), which BG does not write through";
            }
            if (a.isDirectory()) {
                return "is a directory";
            }
            if (a.isRegularFile()) {
                return "is a file";
            }
        } catch (IOException e) {
            return "cannot be read: " + e.getMessage();
        }
        return "is a device, FIFO or socket, not a regular file";
    }

    private static boolean startsWith(Path file, Pattern pattern, String prefix) {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            String head = new String(in.readNBytes(4096), StandardCharsets.UTF_8);
            return pattern != null ? pattern.matcher(head).find() : head.startsWith(prefix);
        } catch (IOException e) {
            return false;
        }
    }

    private static InvalidParameterException refused(String option, Path p, String why) {
        return new InvalidParameterException(
                option,
                p + " " + why + "; BG moves aside or replaces only its own " + "earlier results: give another path");
    }
}
