package org.bgbench.store.sqlite;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.bgbench.store.DataStore;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.bgbench.store.relational.RelationalFeedSuite;
import org.junit.jupiter.api.io.TempDir;

/**
 * Feed following on two friendship tables with counts as attributes: pull's friends-of query, push fan-out and AFR/TF
 * catch-up read {@code friends}; one push and one sorted-push design besides pull keep it short.
 */
class SqliteTwoTablesFeedTest extends RelationalFeedSuite {
    @TempDir
    static Path dir;

    @Override
    protected Stream<FeedDesign> designs() {
        return Stream.of(
                FeedDesign.PULL,
                new FeedDesign(FeedDesign.Kind.PUSH, false),
                new FeedDesign(FeedDesign.Kind.SORTED_PUSH, true));
    }

    @Override
    protected DataStore open(FeedDesign design) {
        return new SqliteStore(
                dir.resolve("feed.sqlite"), 30_000, 16, 1, design, new PhysicalDesign(2, true, false, null));
    }
}
