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
        return GraphSpec.builder().members(200).friendsPerMember(9).resourcesPerMember(5).commentsPerResource(2)
                .confirmedFraction(0.7).images(true).thumbnailBytes(32).profileImageBytes(128).attributeCount(14)
                .attributeLength(8).commentLength(30).fragments(2).seed(7).build()
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
