package org.bgbench.store.memory;

import java.util.Map;
import java.util.UUID;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;

class MemoryConformanceTest extends StoreConformanceSuite {
    private final String name = "conformance-" + UUID.randomUUID();

    @Override
    protected DataStore openStore() {
        // A unique name gives a fresh instance, independent of other tests in this JVM.
        return new MemoryStoreProvider().open(StoreSettings.of(Map.of(MemoryStoreProvider.NAME_KEY, name)));
    }

    /** The named instance outlives a handle (not the JVM: the store forgets on close across processes). */
    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
