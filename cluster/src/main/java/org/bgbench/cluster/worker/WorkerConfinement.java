package org.bgbench.cluster.worker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.bgbench.model.GraphParameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;

/**
 * What a coordinator may make a worker touch: one rule over every store's settings, by their declared
 * {@link StoreSetting.Kind}. Files and directories resolve under the worker's {@code --dir} (after normalising and
 * resolving the symbolic links of the parts that exist); database URLs are confined by the file part BG can parse,
 * and refused where it cannot tell it; settings that load or run code are refused unless the worker was started with
 * {@value #ALLOW_CODE_OPTION}; keys neither the store nor BG declares are refused.
 */
public final class WorkerConfinement {
    /** The {@code bg worker} option that lets a coordinator name code (and URLs whose files BG cannot tell). */
    public static final String ALLOW_CODE_OPTION = "--allow-store-code";

    private final Path dir;
    private final boolean allowCode;

    /**
     * @param dir       the worker's {@code --dir}
     * @param allowCode whether the worker was started with {@value #ALLOW_CODE_OPTION}
     */
    public WorkerConfinement(Path dir, boolean allowCode) {
        this.dir = dir.toAbsolutePath().normalize();
        this.allowCode = allowCode;
    }

    public Path dir() {
        return dir;
    }

    public boolean allowsCode() {
        return allowCode;
    }

    /**
     * The coordinator's parameters with every store setting checked and its files made absolute under {@link #dir()}.
     *
     * @throws IllegalArgumentException naming the key, what is wrong and what a worker accepts
     */
    public Map<String, String> confine(StoreProvider provider, Map<String, String> given) {
        Map<String, StoreSetting> declared = new LinkedHashMap<>();
        for (StoreSetting s : provider.settings()) {
            declared.put(s.key(), s);
        }
        for (String key : new TreeSet<>(given.keySet())) {
            if (!declared.containsKey(key) && !isBgParameter(key)) {
                throw new IllegalArgumentException(key + ": the " + provider.name() + " store declares no such "
                        + "setting and BG has no such parameter; a worker refuses keys it cannot check");
            }
        }
        Map<String, String> out = new LinkedHashMap<>(given);
        for (StoreSetting s : declared.values()) {
            String v = given.getOrDefault(s.key(), s.defaultValue());
            if (v == null || v.isBlank()) {
                continue;
            }
            if (s.namesFile(v)) {
                out.put(s.key(), under(s.key(), v).toString());
            } else if (s.namesDatabase()) {
                boolean list = s.kind() == StoreSetting.Kind.DATABASE_URLS;
                out.put(s.key(), new DatabaseUrls(this).confine(s.key(), v, list));
            } else if (s.loadsCode() && !allowCode && !v.equals(s.defaultValue())) {
                throw new IllegalArgumentException(s.key() + ": names code for the worker to load or run ("
                        + describe(s.kind()) + "); a worker takes none from its coordinator unless it was started "
                        + "with " + ALLOW_CODE_OPTION);
            }
        }
        return out;
    }

    /** Whether {@code key} is one of BG's own parameters (graph, loader, workload, run), which name no files. */
    static boolean isBgParameter(String key) {
        return GraphParameters.KEYS.containsKey(key) || WorkloadParameters.isKey(key) || RunKeys.RUN.containsKey(key)
                || RunKeys.LOADER.containsKey(key) || RunKeys.IGNORED_USC.contains(key)
                || key.equals(StoreSettings.BETA_PARAMETER);
    }

    private static String describe(StoreSetting.Kind kind) {
        return switch (kind) {
            case JAR -> "jar files";
            case MAVEN_ARTIFACT -> "Maven coordinates of a jar";
            case CODE_REPOSITORY -> "a repository to download code from";
            case CLASS_NAME -> "a Java class";
            case COMMAND -> "a command";
            default -> kind.name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /**
     * {@code value} as a path under {@link #dir()}: relative, without {@code ..}, and still under it once the links
     * of its existing parts are resolved (a link inside the directory must not lead out of it).
     *
     * @throws IllegalArgumentException naming {@code key} when it is not
     */
    Path under(String key, String value) {
        Path p;
        try {
            p = Path.of(value.trim());
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException(key + "=" + value + ": not a path (" + e.getReason() + ")");
        }
        if (p.isAbsolute() || value.contains("..") || value.trim().startsWith("~")) {
            throw new IllegalArgumentException(key + "=" + value + ": a worker keeps its files under its own "
                    + "directory (--dir " + dir + "); give a relative path without '..'");
        }
        Path resolved = dir.resolve(p).normalize();
        if (!real(resolved).startsWith(real(dir))) {
            throw new IllegalArgumentException(key + "=" + value + ": leads out of the worker's own directory "
                    + "(--dir " + dir + ") through a symbolic link; a worker keeps its files under it");
        }
        return resolved;
    }

    /** {@code p} with the links of its longest existing prefix resolved; the rest appended as it is. */
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
            throw new IllegalArgumentException(p + ": cannot resolve the path (" + e.getClass().getSimpleName()
                    + ")");
        }
    }

}
