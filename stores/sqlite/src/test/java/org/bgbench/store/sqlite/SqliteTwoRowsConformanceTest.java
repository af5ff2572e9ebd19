package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.model.GraphSpec;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite with two rows per friendship, on a graph with an odd φ (diameter edges), member ids from 0
 * and more attributes than USC BG's eleven columns.
 */
class SqliteTwoRowsConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected GraphSpec spec() {
        return new GraphSpec(200, 0, 9, 5, 2, 0.7, true, 32, 128, 14, 8, 30, 2, 7);
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
