package org.bgbench.store.memory;

import java.util.Map;
import java.util.UUID;
import org.bgbench.store.DataStore;
import org.bgbench.store.StoreSettings;
import org.bgbench.store.conformance.StoreConformanceSuite;

/** The conformance suite with feed.design=push, feed.push=content (Push Content, feeds holding copies of the resources; dissertation 8.4.2). */
class MemoryPushContentConformanceTest extends StoreConformanceSuite {
    private final String name = "conformance-push-content-" + UUID.randomUUID();

    @Override
    protected DataStore openStore() {
        return new MemoryStoreProvider().open(StoreSettings.of(Map.of(MemoryStoreProvider.NAME_KEY, name,
                FeedDesign.DESIGN_KEY, "push", FeedDesign.PUSH_KEY, "content")));
    }

    /** Reopened with the same design: a schema serves the design it was created with. */
    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
