package org.bgbench.runner.confine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.bgbench.model.GraphParameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.store.StoreSettings;
import org.bgbench.workload.WorkloadParameters;

/**
 * What settings from elsewhere (a worker's coordinator, a page that reaches the deck) may make BG touch: one rule over
 * every store's settings, by their declared {@link StoreSetting.Kind}. Files and directories resolve under the scope's
 * root (after normalising and resolving the symbolic links of the parts that exist); database URLs are confined by
 * the file part BG can parse, and refused where it cannot tell it; settings that load or run code are refused unless
 * the scope allows code; keys neither the store nor BG declares are refused.
 */
public final class SettingsConfinement {
    /**
     * Where settings may lead, and how a refusal says so.
     *
     * @param root      the directory every file must stay under
     * @param base      the directory relative paths are taken from
     * @param place     the root in words, e.g. "the worker's own directory (--dir w)"
     * @param pathHint  what a refusal of a path adds, e.g. "a worker keeps its files under it"
     * @param codeHint  what a refusal of code adds: how to allow it
     * @param allowCode whether code (and URLs whose files BG cannot tell) is allowed
     */
    public record Scope(Path root, Path base, String place, String pathHint, String codeHint, boolean allowCode) {
        public Scope {
            root = root.toAbsolutePath().normalize();
            base = base.toAbsolutePath().normalize();
        }
    }

    private final Scope scope;

    public SettingsConfinement(Scope scope) {
        this.scope = scope;
    }

    public Scope scope() {
        return scope;
    }

    boolean allowsCode() {
        return scope.allowCode();
    }

    /**
     * {@code given} with every store setting checked and its files made absolute under the scope's root.
     *
     * @throws IllegalArgumentException naming the key, what is wrong and what is accepted
     */
    public Map<String, String> confine(StoreProvider provider, Map<String, String> given) {
        Map<String, StoreSetting> declared = new LinkedHashMap<>();
        for (StoreSetting s : provider.settings()) {
            declared.put(s.key(), s);
        }
        for (String key : new TreeSet<>(given.keySet())) {
            if (!declared.containsKey(key) && !isBgParameter(key)) {
                throw new IllegalArgumentException(key + ": the " + provider.name() + " store declares no such "
                        + "setting and BG has no such parameter; settings from elsewhere are refused unless BG can "
                        + "check them");
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
            } else if (s.loadsCode() && !scope.allowCode() && !v.equals(s.defaultValue())) {
                throw new IllegalArgumentException(s.key() + ": names code for BG to load or run (" + describe(s.kind())
                        + "); " + scope.codeHint());
            }
        }
        return out;
    }

    /** Whether {@code key} is one of BG's own parameters (graph, loader, workload, run), which name no files. */
    static boolean isBgParameter(String key) {
        return GraphParameters.KEYS.containsKey(key)
                || WorkloadParameters.isKey(key)
                || RunKeys.RUN.containsKey(key)
                || RunKeys.LOADER.containsKey(key)
                || RunKeys.IGNORED_USC.contains(key)
                || key.equals(StoreSettings.BETA_PARAMETER);
    }

    private static String describe(StoreSetting.Kind kind) {
        return switch (kind) {
            case JAR -> "jar files";
            case MAVEN_ARTIFACT -> "Maven coordinates of a jar";
            case CODE_REPOSITORY -> "a repository to download code from";
            case CLASS_NAME -> "a Java class";
            case COMMAND -> "a command";
            default -> kind.name().toLowerCase(Locale.ROOT);
        };
    }

    /**
     * {@code value} as a path under the scope's root, taken from its base when relative: still under the root once
     * normalised and once the links of its existing parts are resolved (a link inside it must not lead out of it).
     *
     * @throws IllegalArgumentException naming {@code key} when it is not
     */
    public Path under(String key, String value) {
        Path p;
        try {
            String v = value.trim();
            // BG takes ~ as the home directory, as the shell would
            p = Path.of(v.equals("~") || v.startsWith("~/") ? System.getProperty("user.home") + v.substring(1) : v);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException(key + ": '" + value + "' is not a path (" + e.getReason() + ")");
        }
        Path resolved = scope.base().resolve(p).normalize();
        if (!resolved.startsWith(scope.root())) {
            throw new IllegalArgumentException(
                    key + ": '" + value + "' is outside " + scope.place() + "; " + scope.pathHint());
        }
        if (!real(resolved).startsWith(real(scope.root()))) {
            throw new IllegalArgumentException(key + ": '" + value + "' leads out of " + scope.place() + " through "
                    + "a symbolic link; " + scope.pathHint());
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
            throw new IllegalArgumentException(
                    p + ": cannot resolve the path (" + e.getClass().getSimpleName() + ")");
        }
    }
}
