package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.bgbench.store.FeedDesign;
import org.bgbench.store.relational.PhysicalDesign;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite with profile images in files (CIKM 2013 section C), in the default directory. */
class SqliteFsImagesConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        Path file = dir.resolve("bg.sqlite");
        return new SqliteStore(file, 30_000, 16, 1, FeedDesign.PULL,
                new PhysicalDesign(1, false, true, SqliteStore.defaultImagesDir(file)));
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
