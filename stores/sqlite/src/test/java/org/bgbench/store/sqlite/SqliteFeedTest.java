package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.RelationalFeedSuite;
import org.junit.jupiter.api.io.TempDir;

/** Feed following in every feed design on one SQLite file. */
class SqliteFeedTest extends RelationalFeedSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore open(FeedDesign design) {
        return new SqliteStore(dir.resolve("feed.sqlite"), 30_000, 16, 1, design);
    }
}
