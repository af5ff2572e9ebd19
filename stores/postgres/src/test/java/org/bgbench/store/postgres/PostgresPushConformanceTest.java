package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.Tag;

/** The conformance suite with the push feed, feed rows carrying the resource's content. */
@Tag("server")
class PostgresPushConformanceTest extends StoreConformanceSuite {
    private static final FeedDesign FEED = new FeedDesign(FeedDesign.Kind.PUSH, true);

    @Override
    protected DataStore openStore() {
        return PostgresStore.open(PostgresConfig.embedded().feed(FEED).build());
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2).feed(FEED).build());
    }
}
