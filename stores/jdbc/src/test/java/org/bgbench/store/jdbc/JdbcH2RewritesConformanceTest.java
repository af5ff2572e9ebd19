package org.bgbench.store.jdbc;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite on H2 with a dialect file that uses every SQL rewrite (src/test/resources/dialects/
 * h2-rewrites.properties): {@code FETCH FIRST}, CLOB text, {@code DROP TABLE} without {@code IF EXISTS}, keys after
 * the load, two rows per friendship.
 */
class JdbcH2RewritesConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return JdbcTests.open(dir, JdbcStoreProvider.URL, "jdbc:h2:" + dir.resolve("bg-h2r").toAbsolutePath(),
                JdbcStoreProvider.DRIVER_MAVEN, "com.h2database:h2:" + JdbcTests.version("h2"),
                JdbcStoreProvider.DRIVER, "org.h2.Driver",
                JdbcStoreProvider.DIALECT, Path.of("src/test/resources/dialects/h2-rewrites.properties").toString(),
                JdbcStoreProvider.FRIENDSHIP_ROWS, "2");
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }
}
