package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite with CIKM 2013's Boosted SQL design (section G): two friendship tables, two rows per
 * friendship, counts as attributes, profile images in files; on a graph with an odd φ, member ids from 0 and more
 * attributes than USC BG's eleven columns.
 */
class SqliteBoostedConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected GraphSpec spec() {
        return GraphSpec.builder().members(200).friendsPerMember(9).resourcesPerMember(5).commentsPerResource(2)
                .confirmedFraction(0.7).images(true).thumbnailBytes(32).profileImageBytes(128).attributeCount(14)
                .attributeLength(8).commentLength(30).fragments(2).seed(7).build()
                .withFeed(new org.bgbench.model.FeedSpec(10, 3, 0, 2));
    }

    @Override
    protected DataStore openStore() {
        return new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 16, 2, FeedDesign.PULL,
                new PhysicalDesign(2, true, true, dir.resolve("images")));
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
