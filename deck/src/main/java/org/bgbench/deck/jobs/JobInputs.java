package org.bgbench.deck.jobs;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.bgbench.runner.confine.SettingsConfinement;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.workload.mix.Mixes;

/**
 * Which inputs of a job the deck passes on to {@code bg}: a page that can reach the deck must not make BG load code
 * or read files from elsewhere. The store's settings go through BG's one rule for settings from elsewhere
 * ({@link SettingsConfinement}, by each setting's declared kind: code refused, files and the files of database URLs
 * under the runs directory, undeclared keys refused), and so do a workload file and the options that name files;
 * unless the deck was started to allow them. Each refusal is one line naming the setting or option.
 */
public final class JobInputs {
    /** The {@code bg deck} option that lets jobs name code and files from elsewhere. */
    public static final String ALLOW_OPTION = "--allow-external";

    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9_.-]+");
    /** Options whose value is a file or directory. */
    private static final Pattern PATH_OPTION =
            Pattern.compile("--(?:[a-z0-9-]+-)?(?:file|dir|ca|cert|key|path|plan" + "|jar|image|workload)");

    private static final String ALLOW =
            "start the deck with " + ALLOW_OPTION + " to allow it, or run the command in " + "a terminal";
    private final StoreRegistry stores;
    private final SettingsConfinement confinement;
    private final boolean external;

    /**
     * @param stores   the stores whose declared settings are checked
     * @param workDir  where the jobs run (relative paths are relative to it)
     * @param runs     the only directory the jobs' paths may name
     * @param external whether code and files from elsewhere are allowed
     */
    public JobInputs(StoreRegistry stores, Path workDir, Path runs, boolean external) {
        this.stores = stores;
        this.confinement = new SettingsConfinement(new SettingsConfinement.Scope(
                runs,
                workDir,
                "the runs directory " + runs.toAbsolutePath().normalize(),
                "the deck passes on paths under it only; " + ALLOW,
                "the deck does not pass on settings that load code or files from elsewhere; " + ALLOW,
                false));
        this.external = external;
    }

    /** Refuses {@code r} when it names what the deck does not pass on. */
    public void check(JobRequest r) {
        checkKeys("settings", r.settings());
        checkKeys("graph", r.graph());
        if (external) {
            return;
        }
        StoreProvider provider = r.store() == null || r.store().isBlank() ? null : stores.get(r.store());
        if (provider != null) {
            Map<String, String> given = new LinkedHashMap<>(r.graph());
            r.settings().forEach((k, v) -> {
                if (v != null && !v.isBlank()) {
                    given.put(k, v);
                }
            });
            confinement.confine(provider, given);
        }
        String w = r.workload();
        if (w != null && !w.isBlank() && !"custom".equals(w) && !namedMix(w)) {
            confinement.under("--workload", w.trim());
        }
        r.options().forEach((name, v) -> {
            if (PATH_OPTION.matcher(name).matches()
                    && v instanceof String s
                    && !s.isBlank()
                    && !(name.equals("--workload") && namedMix(s))) {
                confinement.under(name, s.trim());
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
}
