package org.bgbench.store.jdbc;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite on H2 (dialects/h2.properties) with the sorted push feed referencing resources. */
class JdbcH2SortedPushConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return JdbcH2ConformanceTest.openH2(dir, "feed.design", "sorted-push");
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
