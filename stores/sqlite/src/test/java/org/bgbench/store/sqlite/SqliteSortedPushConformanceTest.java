package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite with the sorted push feed, feed rows carrying the resource's content, two friendship rows. */
class SqliteSortedPushConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 16, 2,
                new FeedDesign(FeedDesign.Kind.SORTED_PUSH, true));
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
