package org.bgbench.deck.jobs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSetting;
import org.bgbench.workload.mix.Mixes;

/**
 * Which inputs of a job the deck passes on to {@code bg}: a page that can reach the deck must not make BG load code
 * or read files from elsewhere, so settings that load code (driver jars, Maven coordinates and repositories, dialect
 * files, JDBC URL parameters naming classes or files) are refused, and every path (the stores' declared path
 * settings, a workload file, file options) must stay under the runs directory, links resolved; unless the deck was
 * started to allow them. Each refusal is one line naming the setting or option.
 */
public final class JobInputs {
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]+");
    /** A built-in dialect's name (anything else is the path of a dialect file). */
    private static final Pattern DIALECT_NAME = Pattern.compile("[A-Za-z0-9_-]+");
    /** JDBC URL parameters that name a class to load or a file to read (pgjdbc's socketFactory, sslkey, …). */
    private static final Pattern JDBC_RISKY_PARAMETER = Pattern.compile(
            ".*(factory|class|callback|verifier|plugin|credential|logger|file|cert|sslkey|keystore|truststore|init"
                    + "|script).*");
    /** Options whose value is a file or directory. */
    private static final Pattern PATH_OPTION = Pattern.compile("--(?:[a-z0-9-]+-)?(?:file|dir|ca|cert|key|path|plan"
            + "|jar|image|workload)");
    private static final String ALLOW = "start the deck with --allow-external to allow it, or run the command in a "
            + "terminal";
    private final Set<String> pathSettings;
    private final Path workDir;
    private final Path runs;
    private final boolean external;

    /**
     * @param stores   the stores whose declared path settings are checked
     * @param workDir  where the jobs run (relative paths are relative to it)
     * @param runs     the only directory the jobs' paths may name
     * @param external whether code and files from elsewhere are allowed
     */
    public JobInputs(StoreRegistry stores, Path workDir, Path runs, boolean external) {
        this.pathSettings = stores.all().stream().map(StoreProvider::settings).flatMap(java.util.List::stream)
                .filter(StoreSetting::path).map(StoreSetting::key).collect(Collectors.toUnmodifiableSet());
        this.workDir = workDir.toAbsolutePath().normalize();
        this.runs = runs.toAbsolutePath().normalize();
        this.external = external;
    }

    /**
     * Whether a setting makes BG load code, or read files, from outside BG itself: a deck-side rule until the stores
     * declare such settings by kind.
     */
    public static boolean loadsCodeOrFilesFromElsewhere(String key, String value) {
        String k = key.toLowerCase(Locale.ROOT);
        String v = value == null ? "" : value.trim();
        if (k.endsWith(".driver-jar") || k.endsWith(".driver-maven") || k.endsWith(".maven-repo")) {
            return true;
        }
        if (k.endsWith(".dialect") && !v.isEmpty() && !DIALECT_NAME.matcher(v).matches()) {
            return true;
        }
        return v.regionMatches(true, 0, "jdbc:", 0, 5) && jdbcParameterLoadsCodeOrFiles(v);
    }

    private static boolean jdbcParameterLoadsCodeOrFiles(String url) {
        int start = indexOfAny(url, "?;", 5);
        if (start < 0) {
            return false;
        }
        for (String part : url.substring(start + 1).split("[?&;]")) {
            String name = part.contains("=") ? part.substring(0, part.indexOf('=')) : part;
            if (JDBC_RISKY_PARAMETER.matcher(name.trim().toLowerCase(Locale.ROOT)).matches()) {
                return true;
            }
        }
        return false;
    }

    private static int indexOfAny(String s, String chars, int from) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** Refuses {@code r} when it names what the deck does not pass on. */
    public void check(JobRequest r) {
        checkKeys("settings", r.settings());
        checkKeys("graph", r.graph());
        if (external) {
            return;
        }
        for (Map<String, String> keys : java.util.List.of(r.settings(), r.graph())) {
            keys.forEach((k, v) -> {
                if (v == null || v.isBlank()) {
                    return;
                }
                if (loadsCodeOrFilesFromElsewhere(k, v)) {
                    throw new IllegalArgumentException(k + ": the deck does not pass on settings that load code or "
                            + "files from elsewhere; " + ALLOW);
                }
                if (pathSettings.contains(k)) {
                    confine(k, v.trim());
                }
                if (v.trim().regionMatches(true, 0, "jdbc:sqlite:", 0, 12)) {
                    String file = v.trim().substring(12).replaceFirst("[?].*$", "");
                    if (!file.isEmpty() && !file.equals(":memory:")) {
                        confine(k, file.replaceFirst("^file:", ""));
                    }
                }
            });
        }
        String w = r.workload();
        if (w != null && !w.isBlank() && !"custom".equals(w) && !namedMix(w)) {
            confine("--workload", w.trim());
        }
        r.options().forEach((name, v) -> {
            if (PATH_OPTION.matcher(name).matches() && v instanceof String s && !s.isBlank()
                    && !(name.equals("--workload") && namedMix(s))) {
                confine(name, s.trim());
            }
        });
    }

    private static void checkKeys(String field, Map<String, String> keys) {
        for (String k : keys.keySet()) {
            if (k == null || !KEY.matcher(k).matches()) {
                throw new IllegalArgumentException(field + ": '" + k + "' is not a key (letters, digits, . _ -)");
            }
        }
    }

    private static boolean namedMix(String name) {
        return Mixes.all().stream().anyMatch(m -> m.name().equalsIgnoreCase(name.trim()));
    }

    /** Refuses {@code value} unless it is a path under the runs directory, with links resolved. */
    private void confine(String name, String value) {
        Path p;
        try {
            // BG takes ~ as the home directory, as the shell would
            String expanded = value.equals("~") || value.startsWith("~/")
                    ? System.getProperty("user.home") + value.substring(1) : value;
            p = workDir.resolve(expanded).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(name + ": not a path: " + value);
        }
        if (!real(p).startsWith(real(runs))) {
            throw new IllegalArgumentException(name + ": '" + value + "' is outside the runs directory " + runs
                    + "; the deck passes on paths under it only; " + ALLOW);
        }
    }

    /** {@code p} with the links of its longest existing part resolved. */
    private static Path real(Path p) {
        Path existing = p;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return p;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(p)).normalize();
        } catch (IOException e) {
            return p;
        }
    }
}
