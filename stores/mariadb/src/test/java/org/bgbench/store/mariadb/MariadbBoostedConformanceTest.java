package org.bgbench.store.mariadb;

import java.nio.file.Path;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite with CIKM 2013's Boosted SQL design (section G): two friendship tables, two rows per
 * friendship, counts as attributes, profile images in files; loaded by LOAD DATA LOCAL INFILE.
 */
@Tag("server")
class MariadbBoostedConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;
    private MariadbServer server;

    @Override
    protected GraphSpec spec() {
        return GraphSpec.builder().members(200).friendsPerMember(9).resourcesPerMember(5).commentsPerResource(2)
                .confirmedFraction(0.7).images(true).thumbnailBytes(32).profileImageBytes(128).attributeCount(14)
                .attributeLength(8).commentLength(30).fragments(2).seed(7).build()
                .withFeed(new org.bgbench.model.FeedSpec(10, 3, 0, 2));
    }

    private DataStore boosted() {
        return MariadbStore.open(new MariadbStore.Config(server.url(), "bg", "bg", 0, 2, MariadbStore.Bulk.INFILE,
                null, FeedDesign.PULL, null, new PhysicalDesign(2, true, true, dir.resolve("images"))));
    }

    @Override
    protected DataStore openStore() {
        server = MariadbServer.start();
        return boosted();
    }

    @Override
    protected DataStore openAgain() {
        return boosted();
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
