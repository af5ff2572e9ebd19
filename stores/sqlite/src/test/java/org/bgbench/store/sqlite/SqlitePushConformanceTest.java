package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite with the push feed, feed rows referencing their resources. */
class SqlitePushConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return new SqliteStore(dir.resolve("bg.sqlite"), 30_000, 16, 1, new FeedDesign(FeedDesign.Kind.PUSH, false));
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
