package org.bgbench.store.mariadb;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite with two friendship tables, one row per friendship, counts as attributes and the push feed,
 * loaded by JDBC batches: AFR and TF change counts, friendship rows and feed rows in one InnoDB transaction, under
 * many threads at once.
 */
@Tag("server")
class MariadbTwoTablesPushConformanceTest extends StoreConformanceSuite {
    private MariadbServer server;

    private DataStore twoTables() {
        return MariadbStore.open(new MariadbStore.Config(server.url(), "bg", "bg", 0, 1, MariadbStore.Bulk.BATCH,
                null, new FeedDesign(FeedDesign.Kind.PUSH, false), null, new PhysicalDesign(2, true, false, null)));
    }

    @Override
    protected DataStore openStore() {
        server = MariadbServer.start();
        return twoTables();
    }

    @Override
    protected DataStore openAgain() {
        return twoTables();
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
