package org.bgbench.store;

import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.bgbench.model.InvalidParameterException;

/** The stores on the class path, by name. */
public final class StoreRegistry {
    private final TreeMap<String, StoreProvider> providers = new TreeMap<>();

    public StoreRegistry(Iterable<StoreProvider> found) {
        for (StoreProvider p : found) {
            providers.put(p.name(), p);
        }
    }

    public static StoreRegistry discover() {
        return new StoreRegistry(ServiceLoader.load(StoreProvider.class));
    }

    public List<StoreProvider> all() {
        return List.copyOf(providers.values());
    }

    public StoreProvider get(String name) {
        StoreProvider p = providers.get(name);
        if (p == null) {
            throw new InvalidParameterException(
                    "--store", "unknown store '" + name + "'; available: " + String.join(", ", providers.keySet()));
        }
        return p;
    }
}
