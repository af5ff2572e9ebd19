package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite through {@code jdbc} on H2, an engine BG has no binding for, with the dialect file shipped in
 * stores/jdbc/dialects/h2.properties; the driver by its Maven coordinates from the local repository.
 */
class JdbcH2ConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    static JdbcStore openH2(Path dir, String... more) {
        String[] base = {JdbcStoreProvider.URL, "jdbc:h2:" + dir.resolve("bg-h2").toAbsolutePath(),
                JdbcStoreProvider.DRIVER_MAVEN, "com.h2database:h2:" + JdbcTests.version("h2"),
                JdbcStoreProvider.DIALECT, JdbcTests.dialectFile("h2.properties").toString()};
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return JdbcTests.open(dir, all);
    }

    @Override
    protected DataStore openStore() {
        return openH2(dir);
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }

    @Test
    void theDialectFileIsUsed() {
        JdbcStore s = (JdbcStore) store;
        assertThat(s.dialectDescription()).endsWith("h2.properties");
        assertThat(s.product()).startsWith("H2");
        assertThat(s.inProcess()).isTrue();
    }
}
