package org.bgbench.store.mariadb;

import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;

/** The conformance suite against one private MariaDB server (scripts/mariadb.sh), started for the class. */
@Tag("server")
class MariadbConformanceTest extends StoreConformanceSuite {
    private MariadbServer server;

    @Override
    protected DataStore openStore() {
        server = MariadbServer.start();
        return server.open(1, MariadbStore.Bulk.INFILE);
    }

    /** A second handle on the same server and database: what it holds outlives the first. */
    @Override
    protected DataStore openAgain() {
        return server.open(1, MariadbStore.Bulk.INFILE);
    }

    /** Runs before the suite's own @AfterAll: closes the store (closing twice is harmless), then the server. */
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
