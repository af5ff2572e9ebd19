package org.bgbench.store.memory;

import java.util.Map;
import java.util.UUID;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite with feed.design=push, feed.push=reference (Push, feeds of references joined at VNF; dissertation 8.4.2). */
class MemoryPushConformanceTest extends StoreConformanceSuite {
    private final String name = "conformance-push-reference-" + UUID.randomUUID();

    @Override
    protected DataStore openStore() {
        return new MemoryStoreProvider().open(StoreSettings.of(Map.of(MemoryStoreProvider.NAME_KEY, name,
                FeedDesign.DESIGN_KEY, "push", FeedDesign.PUSH_KEY, "reference")));
    }

    /** Reopened with the same design: a schema serves the design it was created with. */
    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
