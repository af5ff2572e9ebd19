package org.bgbench.store.mariadb;

import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite with two rows per friendship and the JDBC-batch load path, on a graph with an odd φ, member
 * ids from 0 and more attributes than USC BG's eleven columns.
 */
@Tag("server")
class MariadbTwoRowsConformanceTest extends StoreConformanceSuite {
    private MariadbServer server;

    @Override
    protected GraphSpec spec() {
        // 10 pages, 5 per fragment, each member following 3 (ι = 60), 2 resources per page.
        return new GraphSpec(200, 0, 9, 5, 2, 0.7, true, 32, 128, 14, 8, 30, 2, 7)
                .withFeed(new org.bgbench.model.FeedSpec(10, 3, 0, 2));
    }

    @Override
    protected DataStore openStore() {
        server = MariadbServer.start();
        return server.open(2, MariadbStore.Bulk.BATCH);
    }

    /** A second handle on the same server and database: what it holds outlives the first. */
    @Override
    protected DataStore openAgain() {
        return server.open(2, MariadbStore.Bulk.BATCH);
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
