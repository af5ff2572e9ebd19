package org.bgbench.store.memory;

import java.util.Map;
import java.util.UUID;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite with feed.design=sorted-push, feed.push=reference (Sorted-insert Push, feeds kept sorted, VNF reads the top k; dissertation 8.4.2). */
class MemorySortedPushConformanceTest extends StoreConformanceSuite {
    private final String name = "conformance-sorted-push-reference-" + UUID.randomUUID();

    @Override
    protected DataStore openStore() {
        return new MemoryStoreProvider().open(StoreSettings.of(Map.of(MemoryStoreProvider.NAME_KEY, name,
                FeedDesign.DESIGN_KEY, "sorted-push", FeedDesign.PUSH_KEY, "reference")));
    }

    /** Reopened with the same design: a schema serves the design it was created with. */
    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
