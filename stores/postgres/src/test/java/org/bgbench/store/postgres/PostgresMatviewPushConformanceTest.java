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
        return PostgresStore.open(new PostgresStore.Config(null, null, null, 0, true, 2,
                PostgresStore.Design.MATVIEW, null).withFeed(FEED));
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(new PostgresStore.Config(((PostgresStore) store).url(), null, null, 2, false, 2,
                PostgresStore.Design.MATVIEW, null).withFeed(FEED));
    }
}
