package org.bgbench.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.bgbench.store.DataStore;
import org.bgbench.store.conformance.StoreConformanceSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance suite through {@code jdbc} on SQLite: the driver the sqlite store uses, resolved by its Maven
 * coordinates from the local repository and loaded in a class loader of its own; the dialect guessed from the URL.
 */
class JdbcSqliteConformanceTest extends StoreConformanceSuite {
    @TempDir
    static Path dir;

    @Override
    protected DataStore openStore() {
        return JdbcTests.open(dir, JdbcStoreProvider.URL, "jdbc:sqlite:" + dir.resolve("bg.sqlite"),
                JdbcStoreProvider.DRIVER_MAVEN, "org.xerial:sqlite-jdbc:" + JdbcTests.version("sqlite"));
    }

    @Override
    protected DataStore openAgain() {
        return openStore();
    }

    @Test
    void theDriverComesFromItsJarAndTheDialectFromTheUrl() {
        JdbcStore s = (JdbcStore) store;
        assertThat(s.dialectDescription()).isEqualTo("sqlite (guessed from jdbc.url)");
        assertThat(s.product()).startsWith("SQLite");
        assertThat(s.inProcess()).isTrue();
        assertThat(s.image()).isEmpty();
        assertThat(s.localServerPids()).isEmpty();
        // Loaded in the jdbc store's own class loader, not BG's class path (which holds sqlite-jdbc too).
        java.sql.Driver d = DriverLoader.load(null, java.util.List.of(JdbcTests.localOnly(dir).resolve(
                JdbcStoreProvider.DRIVER_MAVEN, "org.xerial:sqlite-jdbc:" + JdbcTests.version("sqlite"))),
                "jdbc:sqlite:x");
        assertThat(d.getClass().getClassLoader()).isNotSameAs(getClass().getClassLoader());
        assertThat(d.getClass().getClassLoader().getName()).isEqualTo("bg-jdbc-driver");
    }
}
