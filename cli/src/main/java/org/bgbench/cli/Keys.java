package org.bgbench.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.bgbench.model.GraphParameters;
import org.bgbench.runner.RunKeys;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreSetting;
import org.bgbench.workload.WorkloadParameters;

/** Every parameter key BG knows, by group, for checking user input and for {@code bg keys}. */
final class Keys {
    /** Keys of BG's loader. */
    static final Map<String, String> LOAD = RunKeys.LOADER;

    /** Keys of the original BG that name its own classes or features BG does differently; accepted, ignored. */
    static final Set<String> IGNORED_USC = RunKeys.IGNORED_USC;

    private Keys() {}

    /** Keys of {@code bg run}: graph, loader, workload and the store's settings. */
    static Map<String, String> forRun(StoreProvider provider) {
        Map<String, String> all = forLoad(provider);
        all.putAll(WorkloadParameters.KEYS);
        all.putAll(RunKeys.RUN);
        return all;
    }

    static boolean isRunKey(StoreProvider provider, String key) {
        return forRun(provider).containsKey(key) || WorkloadParameters.isKey(key);
    }

    static Map<String, String> forLoad(StoreProvider provider) {
        Map<String, String> all = new LinkedHashMap<>(GraphParameters.KEYS);
        all.putAll(LOAD);
        for (StoreSetting s : provider.settings()) {
            all.put(s.key(), s.description());
        }
        return all;
    }
}
