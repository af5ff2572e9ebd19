package org.bgbench.store.postgres;

import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Tag;

/**
 * The conformance suite with two rows per friendship, on a graph with an odd φ (diameter edges), member ids from 0
 * more attributes than USC BG's eleven columns, and pages.
 */
@Tag("server")
class PostgresTwoRowsConformanceTest extends StoreConformanceSuite {
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
        return PostgresStore.open(PostgresConfig.embedded().friendshipRows(2).build());
    }

    @Override
    protected DataStore openAgain() {
        return PostgresStore.open(PostgresConfig.at(((PostgresStore) store).url()).pool(2).friendshipRows(2).build());
    }
}
