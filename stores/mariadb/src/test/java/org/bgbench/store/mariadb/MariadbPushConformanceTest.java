package org.bgbench.store.mariadb;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/** The conformance suite with feed.design=push, feed.push=reference, 1 friendship row(s), the infile load path. */
@Tag("server")
class MariadbPushConformanceTest extends StoreConformanceSuite {
    private static final FeedDesign FEED = new FeedDesign(FeedDesign.Kind.PUSH, false);
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
        return MariadbStore.open(new MariadbStore.Config(server.url(), "bg", "bg", 0, 1, MariadbStore.Bulk.INFILE, null,
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
