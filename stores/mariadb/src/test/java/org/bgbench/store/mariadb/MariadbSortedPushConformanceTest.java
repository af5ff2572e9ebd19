package org.bgbench.store.mariadb;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/** The conformance suite with feed.design=sorted-push, feed.push=content, 2 friendship row(s), the batch load path. */
@Tag("server")
class MariadbSortedPushConformanceTest extends StoreConformanceSuite {
    private static final FeedDesign FEED = new FeedDesign(FeedDesign.Kind.SORTED_PUSH, true);
    private MariadbServer server;

    @Override
    protected DataStore openStore() {
        server = MariadbServer.start();
        return open();
    }

    /** A second handle on the same server and database: what it holds outlives the first. */
    @Override
    protected DataStore openAgain() {
        return open();
    }

    private DataStore open() {
        return MariadbStore.open(new MariadbStore.Config(server.url(), "bg", "bg", 0, 2, MariadbStore.Bulk.BATCH, null,
                FEED));
    }

    @AfterAll
    void stopServer() {
        if (store != null) {
            store.close();
        }
        if (server != null) {
            server.close();
        }
    }
}
