package org.bgbench.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.bgbench.model.InvalidParameterException;
import org.bgbench.runner.Parameters;
import org.bgbench.store.StoreProvider;
import org.bgbench.store.StoreRegistry;
import org.bgbench.store.StoreSettings;
import picocli.CommandLine.Option;

/** Options every command that talks to a store shares: which store, its settings, USC property files. */
public final class StoreOptions {
    @Option(
            names = "--store",
            paramLabel = "NAME",
            defaultValue = "sqlite",
            description = "Data store binding (default: ${DEFAULT-VALUE}); 'bg stores' lists them.")
    String store;

    @Option(names = "--embedded", description = "Start a throwaway embedded server for the store (postgres).")
    boolean embedded;

    @Option(names = "-p", paramLabel = "KEY=VALUE", description = "Set a parameter (USC BG keys accepted); repeatable.")
    List<String> overrides = new ArrayList<>();

    @Option(names = "-P", paramLabel = "FILE", description = "Read parameters from a USC BG property file; repeatable.")
    List<Path> files = new ArrayList<>();

    StoreProvider provider(StoreRegistry registry) {
        return registry.get(store);
    }

    Parameters parameters() {
        return Parameters.of(files, overrides);
    }

    /** The store's settings from {@code params}, with --embedded applied. */
    StoreSettings settings(StoreProvider provider, Parameters params) {
        Map<String, String> given = new TreeMap<>(params.asMap());
        if (embedded) {
            String key = provider.traits()
                    .embedded()
                    .orElseThrow(() -> new InvalidParameterException(
                            "--embedded", "store '" + provider.name() + "' has no embedded mode"));
            given.put(key, "true");
        }
        return StoreSettings.forProvider(provider, given);
    }
}
