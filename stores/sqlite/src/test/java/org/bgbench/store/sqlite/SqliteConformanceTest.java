package org.bgbench.store.sqlite;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.io.TempDir;

class SqliteConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return new SqliteStore(dir.resolve("db/bg.sqlite"), 30_000, 16, 1);
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
