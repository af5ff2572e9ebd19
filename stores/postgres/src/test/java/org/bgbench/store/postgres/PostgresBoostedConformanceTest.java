package org.bgbench.store.postgres;

import java.nio.file.Path;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite with CIKM 2013's Boosted SQL design (section G): two friendship tables, two rows per
 * friendship, counts as attributes, profile images in files; on a graph with an odd φ and member ids from 0.
 */
@Tag("server")
class PostgresBoostedConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected GraphSpec spec() {
        return GraphSpec.builder().members(200).friendsPerMember(9).resourcesPerMember(5).commentsPerResource(2)
                .confirmedFraction(0.7).images(true).thumbnailBytes(32).profileImageBytes(128).attributeCount(14)
                .attributeLength(8).commentLength(30).fragments(2).seed(7).build()
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
