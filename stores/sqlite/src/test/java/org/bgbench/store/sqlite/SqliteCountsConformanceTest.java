package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite with VP's counts as member attributes (CIKM 2013 E.1, Manual), on one friendship table with
 * the push feed, so AFR and TF change counts, friendships and feed rows in one transaction.
 */
class SqliteCountsConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 16, 1, new FeedDesign(FeedDesign.Kind.PUSH, false),
                new PhysicalDesign(1, true, false, null));
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
