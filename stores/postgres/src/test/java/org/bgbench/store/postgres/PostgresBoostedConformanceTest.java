package org.bgbench.store.postgres;

import java.nio.file.Path;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite with CIKM 2013's Boosted SQL design (section G): two friendship tables, two rows per
 * friendship, counts as attributes, profile images in files; on a graph with an odd φ and member ids from 0.
 */
class PostgresBoostedConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected GraphSpec spec() {
        return new GraphSpec(200, 0, 9, 5, 2, 0.7, true, 32, 128, 14, 8, 30, 2, 7)
                .withFeed(new org.bgbench.model.FeedSpec(10, 3, 0, 2));
    }

    private static PhysicalDesign boosted() {
        return new PhysicalDesign(2, true, true, dir.resolve("images"));
    }

    @Override
    protected DataStore openStore() {
        return PostgresStore.open(PostgresConfig.embedded().friendshipRows(2).physical(boosted()).build());
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2).friendshipRows(2)
                .physical(boosted()).build());
    }
}
