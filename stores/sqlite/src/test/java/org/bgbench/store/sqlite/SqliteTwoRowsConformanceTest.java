package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite with two rows per friendship, on a graph with an odd φ (diameter edges), member ids from 0
 * more attributes than USC BG's eleven columns, and pages.
 */
class SqliteTwoRowsConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected GraphSpec spec() {
        // 10 pages, 5 per fragment, each member following 3 (ι = 60), 2 resources per page.
        return new GraphSpec(200, 0, 9, 5, 2, 0.7, true, 32, 128, 14, 8, 30, 2, 7)
                .withFeed(new org.bgbench.model.FeedSpec(10, 3, 0, 2));
    }

    @Override
    protected DataStore openStore() {
        return new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 16, 2);
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
