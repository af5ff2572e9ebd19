package org.bgbench.store.postgres;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite on the materialized-view design with synchronous refresh and a push feed with two friendship
 * rows: AFR's and TF's feed rows join the transaction that refreshes the view.
 */
@Tag("server")
class PostgresMatviewPushConformanceTest extends StoreConformanceSuite {
    private static final FeedDesign FEED = new FeedDesign(FeedDesign.Kind.PUSH, false);

    @Override
    protected DataStore openStore() {
        return PostgresStore.open(PostgresConfig.embedded().friendshipRows(2).design(PostgresStore.Design.MATVIEW)
                .feed(FEED).build());
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2).friendshipRows(2)
                .design(PostgresStore.Design.MATVIEW).feed(FEED).build());
    }
}
