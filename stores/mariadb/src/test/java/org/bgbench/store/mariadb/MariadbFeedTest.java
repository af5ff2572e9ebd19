package org.bgbench.store.mariadb;

import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.RelationalFeedSuite;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/** Feed following in every feed design against one private MariaDB server (scripts/mariadb.sh). */
@Tag("server")
class MariadbFeedTest extends RelationalFeedSuite {
    private MariadbServer server;

    @BeforeAll
    void start() {
        server = MariadbServer.start();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Override
    protected DataStore open(FeedDesign design) {
        return MariadbStore.open(
                MariadbStore.Config.of(server.url(), "bg", "bg").withFeed(design));
    }
}
