package org.bgbench.store.memory;

import java.util.Map;
import java.util.UUID;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite with feed.design=sorted-push, feed.push=content (Sorted-insert Push with content; dissertation 8.4.2). */
class MemorySortedPushContentConformanceTest extends StoreConformanceSuite {
    private final String name = "conformance-sorted-push-content-" + UUID.randomUUID();

    @Override
    protected DataStore openStore() {
        return new MemoryStoreProvider().open(StoreSettings.of(Map.of(MemoryStoreProvider.NAME_KEY, name,
                FeedDesign.DESIGN_KEY, "sorted-push", FeedDesign.PUSH_KEY, "content")));
    }

    /** Reopened with the same design: a schema serves the design it was created with. */
    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
