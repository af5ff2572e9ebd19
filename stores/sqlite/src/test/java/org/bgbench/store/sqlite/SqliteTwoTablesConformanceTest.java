package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite with friendships in two tables (CIKM 2013 figure 8), one row per friendship. */
class SqliteTwoTablesConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 16, 1, FeedDesign.PULL,
                new PhysicalDesign(2, false, false, null));
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
