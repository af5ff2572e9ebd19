package org.bgbench.store.jdbc;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite on H2 in CIKM 2013's Boosted design (figure 8): friendships in two tables with two rows each,
 * counts as member attributes, profile images in files; the physical design settings reach a store BG has no binding
 * for. With the dialect file of every rewrite (keys added after the load: the two friendship tables' keys).
 */
class JdbcH2BoostedConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return JdbcTests.open(dir, JdbcStoreProvider.URL, "jdbc:h2:" + dir.resolve("bg-h2b").toAbsolutePath(),
                JdbcStoreProvider.DRIVER_MAVEN, "com.h2database:h2:" + JdbcTests.version("h2"),
                JdbcStoreProvider.DIALECT, Path.of("src/test/resources/dialects/h2-rewrites.properties").toString(),
                "friendship.tables", "2", "friendship.rows", "2", "counts", "attributes", "images", "fs",
                "images.dir", dir.resolve("images").toString());
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
