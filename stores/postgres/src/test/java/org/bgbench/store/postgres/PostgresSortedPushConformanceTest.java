package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.Tag;

/** The conformance suite with the sorted push feed, feed rows referencing their resources. */
@Tag("server")
class PostgresSortedPushConformanceTest extends StoreConformanceSuite {
    private static final FeedDesign FEED = new FeedDesign(FeedDesign.Kind.SORTED_PUSH, false);

    @Override
    protected DataStore openStore() {
        return PostgresStore.open(PostgresConfig.embedded().feed(FEED).build());
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2).feed(FEED).build());
    }
}
